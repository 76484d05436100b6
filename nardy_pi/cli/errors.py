"""The one error type a command raises to say "bad input" without a traceback."""


class CliError(Exception):
    """A user-facing error: printed as one line on stderr, exit status `code`."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code
