"""Build the compiled modules (`intrigue.compiled`): Cython, then the C compiler, in place.

    .venv/bin/python -m intrigue.compiling           # build what changed since the last build
    .venv/bin/python -m intrigue.compiling --clean   # remove every build

``make serve`` and ``make test`` run the first. Only this needs Cython and a C compiler
(``pip install -e '.[compile]'``); without them the sources run as they are.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from .compiled import MANIFEST, PACKAGE_DIR, SUFFIX, digest, module_name, sources

# Cython settings: functions stay introspectable (`inspect.signature`), and type annotations
# are read as documentation only, as the interpreter reads them, so a build behaves as its
# source does.
DIRECTIVES = {"binding": True, "annotation_typing": False}
# `-O1` builds in a third of the time of Python's own `-O3 -g` and runs within 5% of it
# (docs/performance.md, *Issue 22, tenth round*).
CFLAGS = "-O1 -g0"
BUILD_DIR = PACKAGE_DIR.parent.parent / "build"  # Cython's C files and the objects


def builds(directory: Path = PACKAGE_DIR) -> Iterator[Path]:
    """Every compiled module under ``directory``."""
    yield from directory.rglob("*" + SUFFIX)


def build(jobs: int = 2) -> int:
    """Compile every module of `sources` whose build is older than its source, remove the
    builds of modules no longer compiled, and note the digests of the sources built (taken
    first: a source edited meanwhile will not match). Returns how many modules are compiled."""
    from Cython.Build import cythonize
    from setuptools import setup

    root = PACKAGE_DIR.parent
    found = sources()
    digests = {module_name(source): digest(source) for source in found}
    os.environ["CFLAGS"] = f"{os.environ.get('CFLAGS', '')} {CFLAGS}".strip()
    here = Path.cwd()
    os.chdir(root)  # module names come from the folders, relative to the package's parent
    try:
        extensions = cythonize(
            [str(source.relative_to(root)) for source in found],
            build_dir=str(BUILD_DIR / "cython"),
            language_level=3,
            nthreads=jobs,
            compiler_directives=DIRECTIVES,
            quiet=True,
        )
        setup(
            name="intrigue-compiled",
            ext_modules=extensions,
            script_args=[
                "--quiet",
                "build_ext",
                "--inplace",
                "--parallel",
                str(jobs),
                "--build-temp",
                str(BUILD_DIR / "temp"),
                "--build-lib",  # else setuptools leaves a copy of every build in src/build
                str(BUILD_DIR / "lib"),
            ],
        )
    finally:
        os.chdir(here)
    for built in list(builds()):  # builds of modules no longer compiled (or removed)
        if module_name(built.with_name(built.name.removesuffix(SUFFIX) + ".py")) not in digests:
            built.unlink()
    MANIFEST.write_text(json.dumps(digests, indent=0, sort_keys=True) + "\n")
    return len(digests)


def clean() -> int:
    """Remove every build, the digests and the C files; returns how many builds."""
    removed = 0
    for built in list(builds()):
        built.unlink()
        removed += 1
    MANIFEST.unlink(missing_ok=True)
    shutil.rmtree(BUILD_DIR / "cython", ignore_errors=True)
    shutil.rmtree(BUILD_DIR / "temp", ignore_errors=True)
    shutil.rmtree(BUILD_DIR / "lib", ignore_errors=True)
    return removed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m intrigue.compiling", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--clean", action="store_true", help="remove every build")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel builds")
    args = parser.parse_args(argv)
    if args.clean:
        print(f"removed {clean()} compiled modules")
        return 0
    print(f"{build(args.jobs)} modules compiled, or already up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
