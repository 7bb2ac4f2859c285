#!/bin/sh
# Installs the C API of mancala (build the libraries first: cargo build --release -p mancala-ffi).
#
#   install.sh [--prefix DIR] [--libdir DIR] [--includedir DIR] [--destdir DIR] [--from DIR]
#
#   --prefix DIR      where the files belong (absolute; default /usr/local)
#   --libdir DIR      the libraries' folder: absolute, or relative to the prefix (default lib;
#                     a distribution may want lib/x86_64-linux-gnu or lib64)
#   --includedir DIR  the header's folder, the same way (default include)
#   --destdir DIR     a staging root (DESTDIR): the files are written under DIR, but the
#                     pkg-config files name the final places, PREFIX/..., as a package built
#                     from the staging root installs them (default: $DESTDIR, else none)
#   --from DIR        the folder holding the built libmancala.so and libmancala.a (default:
#                     the workspace's target/release in a clone of the repository, the
#                     crate's own target/release in the unpacked crates.io package)
#   PREFIX            a lone argument is the prefix, as --prefix PREFIX
#
# It installs:
#   INCLUDEDIR/mancala.h
#   LIBDIR/libmancala.so.VERSION, with the links libmancala.so.ABI (the SONAME) and
#     libmancala.so pointing at it; LIBDIR/libmancala.a
#   LIBDIR/pkgconfig/mancala.pc (the shared library; Libs.private lists the system libraries
#     of a static link) and LIBDIR/pkgconfig/mancala-static.pc (the static library)
#   LIBDIR/cmake/mancala/mancala-config.cmake and mancala-config-version.cmake
#     (find_package(mancala CONFIG): targets mancala::mancala and mancala::mancala_static;
#     relocatable: the paths are found from the file's own place)
#   PREFIX/share/mancala/valgrind.supp (valgrind suppressions of the thread blocks that
#     glibc and the Rust standard library keep after the library's worker threads end)
set -eu
here=$(cd "$(dirname "$0")" && pwd)

usage() {
    sed -n '2,16s/^# \{0,1\}//p' "$0"
}
die() {
    echo "install.sh: $*" >&2
    exit 2
}

prefix=/usr/local
libdir=lib
includedir=include
destdir=${DESTDIR:-}
from=
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix | --libdir | --includedir | --destdir | --from)
            [ $# -ge 2 ] || die "$1 needs a value"
            opt=${1#--}
            value=$2
            shift 2
            ;;
        --prefix=* | --libdir=* | --includedir=* | --destdir=* | --from=*)
            opt=${1%%=*}
            opt=${opt#--}
            value=${1#*=}
            shift
            ;;
        -h | --help)
            usage
            exit 0
            ;;
        -*) die "unknown option $1 (see --help)" ;;
        *)
            opt=prefix
            value=$1
            shift
            ;;
    esac
    case "$opt" in
        prefix) prefix=$value ;;
        libdir) libdir=$value ;;
        includedir) includedir=$value ;;
        destdir) destdir=$value ;;
        from) from=$value ;;
    esac
done

case "$prefix" in
    /*) ;;
    *) die "--prefix must be an absolute path (got '$prefix')" ;;
esac
# Without trailing slashes ("/" stays "/").
strip() {
    s=$1
    while [ "${s%/}" != "$s" ] && [ "$s" != / ]; do s=${s%/}; done
    printf '%s\n' "$s"
}
prefix=$(strip "$prefix")
under_prefix() {
    case "$1" in
        /*) strip "$1" ;;
        *) if [ "$prefix" = / ]; then strip "/$1"; else strip "$prefix/$1"; fi ;;
    esac
}
libdir=$(under_prefix "$libdir")
includedir=$(under_prefix "$includedir")
destdir=$(strip "$destdir")
[ "$destdir" = / ] && destdir=

if [ -z "$from" ]; then
    # The workspace's folder only when it holds the library (an unpacked package two levels
    # below some other project's target/release must not take that project's files).
    if [ -f "$here/../../target/release/libmancala.so" ]; then
        from=$here/../../target/release
    else
        from=$here/target/release
    fi
fi
for f in libmancala.so libmancala.a; do
    [ -f "$from/$f" ] || die "$from/$f not found; run cargo build --release -p mancala-ffi (or give --from)"
done

header="$here/include/mancala.h"
version=$(sed -n 's/^#define MANCALA_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
    "$header" | paste -sd. -)
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
# The ABI version of the SONAME (see build.rs): 0.MINOR below 1.0, MAJOR from 1.0 on.
if [ "$major" = 0 ]; then abi="0.$minor"; else abi="$major"; fi

# The system libraries that a program linking the static library needs for Rust's standard
# library, as `rustc --crate-type staticlib --print native-static-libs` prints them for this
# target (x86_64/aarch64 Linux, glibc); the library itself adds none.
syslibs="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
cmake_syslibs=$(printf '%s\n' "$syslibs" | sed -e 's/-l//g' -e 's/ /;/g')

# A folder as the pkg-config files write it: under the prefix, relative to ${prefix}.
pc_path() {
    case "$1" in
        "$prefix") printf '%s\n' '${prefix}' ;;
        "$prefix"/*) printf '%s\n' "\${prefix}/${1#"$prefix"/}" ;;
        *) printf '%s\n' "$1" ;;
    esac
}
# The include folder as the CMake package finds it from the library folder: relative when
# both are under the prefix (the package stays relocatable), else absolute.
case "$libdir/" in
    "$prefix"/*)
        rel=${libdir#"$prefix"}
        up=
        while [ -n "$rel" ]; do
            rel=${rel%/*}
            up="$up/.."
        done
        case "$includedir" in
            "$prefix") cmake_includedir="\${_mancala_libdir}$up" ;;
            "$prefix"/*) cmake_includedir="\${_mancala_libdir}$up/${includedir#"$prefix"/}" ;;
            *) cmake_includedir=$includedir ;;
        esac
        ;;
    *) cmake_includedir=$includedir ;;
esac

lib="$destdir$libdir"
mkdir -p "$destdir$includedir" "$lib/pkgconfig" "$lib/cmake/mancala"
install -m 644 "$header" "$destdir$includedir/mancala.h"
rm -f "$lib/libmancala.so" "$lib/libmancala.so.$abi"
install -m 755 "$from/libmancala.so" "$lib/libmancala.so.$version"
ln -s "libmancala.so.$version" "$lib/libmancala.so.$abi"
ln -s "libmancala.so.$abi" "$lib/libmancala.so"
install -m 644 "$from/libmancala.a" "$lib/libmancala.a"
# A value as sed's replacement text (`\`, `&` and the delimiter `|` escaped), and a path as
# a pkg-config value (spaces escaped with a backslash, which pkg-config reads back).
sed_text() { printf '%s' "$1" | sed -e 's/[\\&|]/\\&/g'; }
pc_text() { sed_text "$(printf '%s' "$1" | sed -e 's/ /\\ /g')"; }
for pc in mancala mancala-static; do
    sed -e "s|@PREFIX@|$(pc_text "$prefix")|" -e "s|@LIBDIR@|$(pc_text "$(pc_path "$libdir")")|" \
        -e "s|@INCLUDEDIR@|$(pc_text "$(pc_path "$includedir")")|" -e "s|@VERSION@|$version|" \
        -e "s|@SYSLIBS@|$syslibs|" "$here/$pc.pc.in" >"$lib/pkgconfig/$pc.pc"
done
mkdir -p "$destdir$prefix/share/mancala"
install -m 644 "$here/valgrind.supp" "$destdir$prefix/share/mancala/valgrind.supp"
for f in mancala-config.cmake mancala-config-version.cmake; do
    sed -e "s|@VERSION@|$version|g" -e "s|@ABI@|$abi|g" -e "s|@SYSLIBS@|$cmake_syslibs|g" \
        -e "s|@INCLUDEDIR@|$(sed_text "$cmake_includedir")|g" "$here/cmake/$f.in" >"$lib/cmake/mancala/$f"
done
echo "installed mancala $version: $includedir/mancala.h, $libdir/libmancala.{so,a}${destdir:+ (staged under $destdir)}"
