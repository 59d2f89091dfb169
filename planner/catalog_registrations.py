"""Flink's catalog store: where the catalogs CREATE CATALOG registers are kept, so that the next session has them.

Flink 2.x keeps the registrations (a catalog's name and its WITH options; not its contents, which are the catalog's
own business) in a CatalogStore chosen by `table.catalog-store.kind`: `generic_in_memory` (gone at exit) or `file`
(`table.catalog-store.file.path`, one file a catalog). dynsql honours both keys; its default is `file` in the
project's `.dynsql/catalogs` (beside the job registry), so that a persistent catalog ('type' = 'dynsql') made once
is there in every later session of the project; DROP CATALOG removes its file. Each file is
`<path>/<catalog name>.json`, the options as a JSON object, owner-only (0600, its folder 0700: an option may hold a
password; a folder that is a link or another user's is refused), written whole to a temporary file and renamed
over the old one.

This module reads and writes the files; the session (repl/client.py) registers what it reads at start. Nothing
here imports Spark or the planner's parser."""

import json
import os
import stat
from urllib.parse import quote, unquote

SUFFIX = ".json"


class FileCatalogStore:
    def __init__(self, path):
        self.path = os.path.abspath(os.path.expanduser(path))

    def file(self, name):
        return os.path.join(self.path, quote(name, safe="") + SUFFIX)

    def load(self):
        """-> ([(catalog name, its options)] by name, [a warning for each file that cannot be read]). A folder
        that is a link or another user's is not read (it could name catalogs whose tables someone else chose)."""
        try:
            st = os.lstat(self.path)
            if stat.S_ISLNK(st.st_mode) or st.st_uid != os.getuid():
                raise OSError("it is a symbolic link or another user's folder")
            names = sorted(os.listdir(self.path))
        except FileNotFoundError:
            return [], []
        except OSError as e:
            return [], ["[WARNING] The catalog store %s cannot be read: %s" % (self.path, e.strerror or e)]
        found, problems = [], []
        for entry in names:
            if not entry.endswith(SUFFIX) or entry.startswith("."):
                continue
            path = os.path.join(self.path, entry)
            try:
                with open(path, encoding="utf-8") as f:
                    options = json.load(f)
                if not (isinstance(options, dict) and all(isinstance(k, str) and isinstance(v, str)
                                                           for k, v in options.items())):
                    raise ValueError("not a JSON object of option keys and string values")
            except (OSError, ValueError) as e:
                problems.append("[WARNING] The catalog stored in %s is not registered: %s"
                                % (path, e.strerror if isinstance(e, OSError) and e.strerror else e))
                continue
            found.append((unquote(entry[:-len(SUFFIX)]), options))
        return found, problems

    def store(self, name, options):
        """Raises OSError (runtime.private_files.UnsafeFolder: a folder that is a link or another user's)."""
        from runtime.private_files import open_private, private_folder     # as catalog_store.py writes its files
        private_folder(self.path)
        target = self.file(name)
        tmp = "%s.%d.tmp" % (target, os.getpid())
        with open_private(tmp, "w") as f:
            json.dump(options, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)

    def remove(self, name):
        try:
            os.remove(self.file(name))
        except FileNotFoundError:
            pass


def create_catalog_statement(name, options):
    """The CREATE CATALOG that registers `name` with `options` again (a job's process replays it)."""
    def literal(text):
        return "'%s'" % text.replace("'", "''")
    return "CREATE CATALOG `%s` WITH (%s)" % (name.replace("`", "``"),
                                              ", ".join("%s = %s" % (literal(k), literal(v))
                                                        for k, v in options.items()))
