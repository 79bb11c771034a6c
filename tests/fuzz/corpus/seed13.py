x y
def (x): pass
import
from x
f(
