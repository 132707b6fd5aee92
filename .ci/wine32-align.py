#!/usr/bin/env python3
"""wine32-align.py PACKAGE... - the apt-get arguments that install PACKAGE (i386) when the
i386 and amd64 package lists are at different versions.

Multi-arch libraries must be at the same version in both architectures. When the mirror's i386
index of one suite cannot be fetched (a stale or half-synced mirror), the amd64 side has newer
versions of some libraries than any i386 list offers, and apt-get refuses the install. This finds,
by simulated installs only (apt-get -s changes nothing), a set of pinned versions that works:
each library both architectures need at the newest version both lists have, each installed
package that depends on an exact version of a pinned library at the version that matches, and
nothing removed. It prints the arguments on one line (exit 0), or why it found none (exit 1).
"""
import re
import subprocess
import sys


def apt(*args):
    r = subprocess.run(["apt-get", "install", "-s", "--allow-downgrades", "--no-install-recommends", *args],
                       capture_output=True, text=True, env={"LANG": "C", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    return r.returncode, r.stdout + r.stderr


_versions = {}


def versions(*pkgs):
    """the versions the package lists offer for each of pkgs (name:arch), newest first"""
    ask = [p for p in pkgs if p not in _versions]
    if ask:
        out = subprocess.run(["apt-cache", "madison", *ask], capture_output=True, text=True).stdout
        for p in ask:
            _versions[p] = []
        for line in out.splitlines():
            f = [x.strip() for x in line.split("|")]
            if len(f) < 3 or "Packages" not in f[2]:
                continue
            arch = re.search(r"\s(\S+) Packages$", f[2])
            name = f[0].split(":")[0]
            a = arch.group(1) if arch else ""
            for k in ("%s:%s" % (name, a),) if a != "all" else (name + ":amd64", name + ":i386"):
                if k in _versions and f[1] not in _versions[k]:
                    _versions[k].append(f[1])
    return [_versions[p] for p in pkgs]


def depends(pkg, ver):
    out = subprocess.run(["apt-cache", "show", "%s=%s" % (pkg, ver)], capture_output=True, text=True).stdout
    return " ".join(re.findall(r"^(?:Pre-)?Depends: (.*)$", out, re.M))


def main(targets):
    pins = {}     # name:arch -> version
    extra = []    # installed packages that would be removed: kept by upgrading them with the rest
    for _ in range(40):
        args = targets + extra + ["%s=%s" % kv for kv in sorted(pins.items())]
        rc, out = apt(*args)
        removed = re.findall(r"^Remv (\S+)", out, re.M)
        if rc == 0 and not removed:
            print(" ".join(args))
            return 0
        changed = False
        # an i386 library that cannot be installed: pin both architectures to a common version
        names = set(re.findall(r"Depends: ([^\s:]+):i386", out)) | set(re.findall(r"^ ([^\s:]+):i386 :", out, re.M))
        keys = [n + a for n in sorted(names) for a in (":amd64", ":i386")]
        got = dict(zip(keys, versions(*keys)))
        for n in sorted(names):
            a, b = got[n + ":amd64"], got[n + ":i386"]
            common = [v for v in b if v in a]
            if not common:
                continue
            for k in (n + ":amd64", n + ":i386"):
                if pins.get(k) != common[0]:
                    pins[k] = common[0]
                    changed = True
        # an amd64 package that needs an exact version of a pinned library: the version that matches
        for x, y, want in re.findall(r"^ (\S+) : Depends: ([^\s:]+)(?::\S+)? \(= \S+\) but (\S+) is to be installed", out, re.M):
            x = x.split(":")[0]
            for v in versions(x + ":amd64")[0]:
                if re.search(r"\b%s(?::any)? \(= %s\)" % (re.escape(y), re.escape(want)), depends(x, v)):
                    if pins.get(x + ":amd64") != v:
                        pins[x + ":amd64"] = v
                        changed = True
                    break
        for r in removed:
            name = r.split(":")[0] + (":" + r.split(":")[1] if ":" in r else ":amd64")
            if name not in pins and r not in extra:
                extra.append(r)
                changed = True
        if not changed:
            err = [l for l in out.splitlines() if l.startswith(("E:", " "))][:4]
            print("no set of versions installs %s: %s" % (" ".join(targets), " | ".join(x.strip() for x in err)))
            return 1
    print("gave up after 40 rounds")
    return 1


if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        sys.exit(0 if len(sys.argv) > 1 else 2)
    sys.exit(main(sys.argv[1:]))
