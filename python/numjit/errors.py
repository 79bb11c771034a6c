"""numjit.errors — the exceptions numjit raises.

Compile-time problems are reported with the rendered diagnostic of the library as the
message ("file.py:12:9: error: ..." with the source line and a caret).  The classes also
subclass the built-in exception a Python programmer would expect, so ``except TypeError``
catches a typing error and ``except SyntaxError`` a source numjit cannot parse.  Run-time
errors of compiled code are the built-in ZeroDivisionError, IndexError and ValueError, as
under Numba.  Numba's names (NumbaError, TypingError, UnsupportedError) are aliases here, so
``from numba.core.errors import TypingError`` keeps working under the drop-in trick.
"""


class NumjitError(Exception):
    """Base class of numjit's own errors."""


class TypingError(NumjitError, TypeError):
    """Type inference failed for the argument types of a call (or an unsupported argument)."""


class NumjitSyntaxError(NumjitError, SyntaxError):
    """The source does not parse, or uses Python outside the subset numjit compiles."""


class CompileError(NumjitError, RuntimeError):
    """An internal failure of the compiler (LLVM); please report it."""


class UnsupportedError(NumjitError, NotImplementedError):
    """A feature numjit does not provide (yet), or not on this machine."""


class CudaError(NumjitError, RuntimeError):
    """A CUDA driver call failed."""


# Numba's spellings.
NumbaError = NumjitError
UnsupportedFeatureError = UnsupportedError

__all__ = ["NumjitError", "TypingError", "NumjitSyntaxError", "CompileError",
           "UnsupportedError", "CudaError", "NumbaError", "UnsupportedFeatureError"]
