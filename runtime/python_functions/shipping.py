"""Shipping Python functions' modules to Spark's executors: the files of 'python.files' and the module a
function is defined in, unless it is an installed package (site-packages: the workers have it, or it is theirs
to install). A module of a package goes as a zip of that package's .py files; a plain module as a zip of its
one file. Each zip is named by its content (a changed module is a new zip) and added once (`addPyFile`, or
Spark Connect's `addArtifacts`)."""

import os
import sys
import sysconfig

from ..session import content_named_zip, is_connect

_INSTALLED = tuple(os.path.realpath(p) + os.sep for p in {sysconfig.get_paths()["purelib"],
                                                           sysconfig.get_paths()["platlib"], sys.base_prefix})


def ship(spark, module_name, python_files, shipped):
    """Add to the session what the executors need to import `module_name`; `shipped`: zips added before."""
    for path in python_files:
        _add(spark, _zip_of(path), shipped)
    module = sys.modules.get(module_name)
    source = getattr(module, "__file__", None)
    if not source or os.path.realpath(source).startswith(_INSTALLED):
        return
    top = module_name.split(".")[0]
    if "." in module_name:
        root = os.path.dirname(os.path.realpath(sys.modules[top].__file__))
        _add(spark, _zip_of(root, top), shipped)
    else:
        _add(spark, _zip_of(source), shipped)


def _add(spark, archive, shipped):
    if archive in shipped:
        return
    if is_connect(spark):
        spark.addArtifacts(archive, pyfile=True)
    else:
        spark.sparkContext.addPyFile(archive)
    shipped.add(archive)


def _zip_of(path, package=None):
    """A zip of a .py file, a folder's .py files (as the package `package`, or at the zip's root) or a zip."""
    path = os.path.realpath(path)
    if path.endswith((".zip", ".egg")):
        return path
    files = []
    if os.path.isdir(path):
        for folder, dirs, names in os.walk(path):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
            for name in sorted(names):
                if name.endswith(".py"):
                    full = os.path.join(folder, name)
                    rel = os.path.relpath(full, path)
                    files.append((full, os.path.join(package, rel) if package else rel))
    else:
        files.append((path, os.path.basename(path)))
    stem = package or os.path.splitext(os.path.basename(path))[0]
    return content_named_zip(files, "dynsql-udf-%s-%%s.zip" % stem.replace("%", "%%"), 16)
