"""numjit.errors — the exceptions numjit raises.

Compile-time problems are reported with the rendered diagnostic of the library as the
message ("file.py:12:9: error: ..." with the source line and a caret).  The classes also
subclass the built-in exception a Python programmer would expect, so ``except TypeError``
catches a typing error and ``except SyntaxError`` a source numjit cannot parse.  Run-time
errors of compiled code are the built-in ZeroDivisionError, IndexError and ValueError, as
under Numba.  Numba's names (NumbaError, TypingError, UnsupportedError) are aliases here, so
``from numba.core.errors import TypingError`` keeps working under the drop-in trick; every other
name of Numba 0.56's numba.core.errors (its warnings, NumbaValueError, LoweringError, ...) is
here too, in Numba's hierarchy, for programs that catch, raise or filter them.
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


# The rest of numba.core.errors, with Numba 0.56's hierarchy below numjit's classes, so that
# `except numba.core.errors.X` in a program catches what it catches under Numba.  numjit itself
# raises the classes above; these exist to be named, caught and raised by programs.
class NumbaWarning(Warning):
    """Base class of the warnings Numba programs name."""


class NumbaPerformanceWarning(NumbaWarning):
    pass


class NumbaDeprecationWarning(NumbaWarning):
    pass


class NumbaPendingDeprecationWarning(NumbaWarning):
    pass


class NumbaParallelSafetyWarning(NumbaWarning):
    pass


class NumbaTypeSafetyWarning(NumbaWarning):
    pass


class NumbaExperimentalFeatureWarning(NumbaWarning):
    pass


class NumbaInvalidConfigWarning(NumbaWarning):
    pass


class NumbaPedanticWarning(NumbaWarning):
    pass


class NumbaIRAssumptionWarning(NumbaPedanticWarning):
    pass


class NumbaDebugInfoWarning(NumbaWarning):
    pass


class UnsupportedRewriteError(UnsupportedError):
    pass


class IRError(NumjitError):
    pass


class RedefinedError(IRError):
    pass


class NotDefinedError(IRError):
    pass


class VerificationError(IRError):
    pass


class DeprecationError(NumjitError):
    pass


class LoweringError(NumjitError):
    pass


class UnsupportedParforsError(NumjitError):
    pass


class ForbiddenConstruct(LoweringError):
    pass


class UntypedAttributeError(TypingError):
    pass


class ByteCodeSupportError(NumjitError):
    pass


CompilerError = CompileError


class ConstantInferenceError(NumjitError):
    pass


class InternalError(NumjitError):
    pass


class InternalTargetMismatchError(InternalError):
    pass


class RequireLiteralValue(TypingError):
    pass


class ForceLiteralArg(NumjitError):
    pass


class LiteralTypingError(TypingError):
    pass


class NumbaValueError(TypingError):
    pass


class NumbaTypeError(TypingError):
    pass


class NumbaAttributeError(TypingError):
    pass


class NumbaAssertionError(TypingError):
    pass


class NumbaNotImplementedError(TypingError):
    pass


class NumbaKeyError(TypingError):
    pass


class NumbaIndexError(TypingError):
    pass


class NumbaRuntimeError(NumjitError):
    pass


# numba.core.errors.__all__ of Numba 0.56, in its order
NUMBA_NAMES = [
    "NumbaWarning", "NumbaPerformanceWarning", "NumbaDeprecationWarning",
    "NumbaPendingDeprecationWarning", "NumbaParallelSafetyWarning", "NumbaTypeSafetyWarning",
    "NumbaExperimentalFeatureWarning", "NumbaInvalidConfigWarning", "NumbaPedanticWarning",
    "NumbaIRAssumptionWarning", "NumbaDebugInfoWarning", "NumbaError", "UnsupportedError",
    "UnsupportedRewriteError", "IRError", "RedefinedError", "NotDefinedError",
    "VerificationError", "DeprecationError", "LoweringError", "UnsupportedParforsError",
    "ForbiddenConstruct", "TypingError", "UntypedAttributeError", "ByteCodeSupportError",
    "CompilerError", "ConstantInferenceError", "InternalError", "InternalTargetMismatchError",
    "RequireLiteralValue", "ForceLiteralArg", "LiteralTypingError", "NumbaValueError",
    "NumbaTypeError", "NumbaAttributeError", "NumbaAssertionError", "NumbaNotImplementedError",
    "NumbaKeyError", "NumbaIndexError", "NumbaRuntimeError"]

__all__ = ["NumjitError", "NumjitSyntaxError", "CompileError", "CudaError",
           "UnsupportedFeatureError"] + NUMBA_NAMES
