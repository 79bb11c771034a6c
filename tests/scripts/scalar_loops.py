# Top-level loops over int and float scalars: the statements a session evaluates without
# compiling (int64 and float64 arithmetic, floor division and modulo of negative numbers,
# chained and mixed comparisons), next to ones it compiles (**, float // and %, bools).
total = 0
for i in range(100000):
    total += i
print(total)

acc = 0.0
k = 0
while k < 1000:
    acc = acc + k / 7 - (k // 3) * 0.5
    k += 1
print(acc, k)

for a in range(-7, 8, 3):
    for b in range(-3, 4, 2):
        print(a, b, a // b, a % b, a / b, -a, ~a, a & b, a | b, a ^ b)

x = 2.5
n = 3
print(x + n, n - x, n * x, x / n, n < x, x <= n, 1 < n < 4, 1 < n < 3, n == 3.0, n != 3.0)
print(not n, not 0, not x, +n, -x, n > 2 and x, n ** 2, x // 2, x % 2, True + True)
big = 2 ** 62
print(big - 1 + big, -big - big)
count = 0
for i in range(1000):
    if i % 3 == 0 or i % 5 == 0:
        count += 1
    elif i > 900:
        break
print(count, i)
