"""The terminal: command line, prompt_toolkit shell, lexer, completer, toolbar and result views.

The repl never touches Spark and never decides SQL semantics."""

__version__ = "0.1.0"
