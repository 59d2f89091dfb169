"""Key bindings of the shell's prompt.

Enter submits the buffer only when it holds complete statements (each ending with a `;` outside
strings, quoted identifiers and comments) or a shell command (HELP, CLEAR, QUIT, EXIT, with or
without `;`); otherwise it starts a new line. Enter with a completion selected takes the completion.
Ctrl-C at the prompt clears the line and Ctrl-D on an empty line leaves: the shell's loop handles the
KeyboardInterrupt / EOFError prompt_toolkit raises for them. Statement splitting itself is the
planner's (`planner.splitter`); this module only binds keys."""

from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import Condition, completion_is_selected, has_focus, is_searching
from prompt_toolkit.key_binding import KeyBindings

from planner.splitter import SHELL_COMMANDS, is_complete


def is_shell_command(text):
    """HELP, CLEAR, QUIT or EXIT, any case, with or without `;`."""
    return text.strip().rstrip(";").strip().upper() in SHELL_COMMANDS


def ready_to_submit(text):
    """What Enter decides on: submit (True) or start a new line (False)."""
    return is_shell_command(text) or is_complete(text)


def shell_key_bindings():
    bindings = KeyBindings()
    on_prompt = has_focus(DEFAULT_BUFFER) & ~is_searching

    @Condition
    def buffer_ready():
        from prompt_toolkit.application import get_app
        return ready_to_submit(get_app().current_buffer.text)

    @bindings.add("enter", filter=on_prompt & completion_is_selected)
    def _take_completion(event):
        event.current_buffer.complete_state = None

    @bindings.add("enter", filter=on_prompt & ~completion_is_selected & buffer_ready)
    def _submit(event):
        event.current_buffer.validate_and_handle()

    @bindings.add("enter", filter=on_prompt & ~completion_is_selected & ~buffer_ready)
    def _new_line(event):
        event.current_buffer.newline(copy_margin=False)

    return bindings
