a[
x = 1 +
if x:
pass
while True: x = 1 if y
for x in : pass
x = (1, 2]
x = 1)
