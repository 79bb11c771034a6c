def f(a,
      b):   # a comment after the header
    # a comment line at another indentation
        # and another one
    x = (a +
  b)        # continuation inside brackets ignores indentation

    y = a \
        + b

	# tab-indented comment line
    if x:
	    return y        # a tab then spaces: width 8 + 4 = 12
    return [x,
            y,
           ]
