#!/usr/bin/env python3
"""Fails when a binary needs at run time more than the Vulkan loader and the C/C++ runtime,
i.e. a shared library that a GPU machine of another distribution may lack (libfmt.so.9,
libstb.so.0, libglfw.so.3, ...). Stdlib only.

  check_runtime_deps.py BINARY...

Reads `ldd BINARY` (direct and indirect dependencies). Allowed: linux-vdso / linux-gate,
the dynamic loader ld-linux*, libc, libm, libstdc++, libgcc_s, libvulkan.so.1, and glibc's
libpthread / libdl / librt (merged into libc since glibc 2.34, separate files before).
"""
import re
import subprocess
import sys

ALLOWED = [
    r"linux-vdso\.so\.1", r"linux-gate\.so\.1", r"ld-linux[-\w.]*\.so\.\d+", r"ld64\.so\.\d+",
    r"libc\.so\.6", r"libm\.so\.6", r"libstdc\+\+\.so\.6", r"libgcc_s\.so\.1",
    r"libpthread\.so\.0", r"libdl\.so\.2", r"librt\.so\.1",
    r"libvulkan\.so\.1",
]


def check(binary):
    p = subprocess.run(["ldd", binary], capture_output=True, text=True)
    out = p.stdout + p.stderr
    print(f"$ ldd {binary}\n{out.rstrip()}")
    if "not a dynamic executable" in out:
        return []
    if p.returncode != 0:
        return [f"ldd failed ({p.returncode})"]
    bad = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if not line:
            continue
        name = line.split()[0]
        base = name.rsplit("/", 1)[-1]
        if "not found" in line:
            bad.append(f"{base} (not found)")
        elif not any(re.fullmatch(a, base) for a in ALLOWED):
            bad.append(base)
    return bad


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    failed = False
    for binary in sys.argv[1:]:
        bad = check(binary)
        if bad:
            failed = True
            print(f"FAIL: {binary} needs {', '.join(bad)} at run time "
                  "(only the Vulkan loader and the C/C++ runtime are allowed)")
    if failed:
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
