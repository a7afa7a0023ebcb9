"""Exception hierarchy. Scorers never raise these for model output; they are for bad configuration or data."""


class VerifiersError(Exception):
    """Base class of every error this package raises on purpose."""


class ConfigError(VerifiersError, ValueError):
    """A configuration value is invalid (unknown preset, negative timeout, impossible batch sizes...)."""


class DataError(VerifiersError, ValueError):
    """A dataset file or record is missing, unreadable or lacks a required field."""


class SandboxError(VerifiersError, RuntimeError):
    """The code-execution sandbox cannot start or has failed."""
