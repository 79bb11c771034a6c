a = 0777
b = 99999999999999999999
c = 1j
d = b'bytes'
e = 'unterminated
f = 1 ? 2
g = "\x4"
h = 0xFFFFFFFFFFFFFFFF
