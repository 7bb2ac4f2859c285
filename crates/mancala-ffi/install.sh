#!/bin/sh
# Installs the C API of mancala under PREFIX (default /usr/local):
#   PREFIX/include/mancala.h
#   PREFIX/lib/libmancala.so.VERSION, with the links libmancala.so.ABI (the SONAME) and
#     libmancala.so pointing at it; PREFIX/lib/libmancala.a
#   PREFIX/lib/pkgconfig/mancala.pc
#   PREFIX/lib/cmake/mancala/mancala-config.cmake and mancala-config-version.cmake
#     (find_package(mancala CONFIG): targets mancala::mancala and mancala::mancala_static)
# Build the libraries first: cargo build --release -p mancala-ffi
# LIBDIR overrides where the built libraries are taken from (default: the workspace's
# target/release in a clone of the repository, the crate's own target/release in the
# unpacked crates.io package).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
prefix=${1:-/usr/local}
if [ -d "$here/../../target/release" ]; then
    libdir=${LIBDIR:-$here/../../target/release}
else
    libdir=${LIBDIR:-$here/target/release}
fi
header="$here/include/mancala.h"
version=$(sed -n 's/^#define MANCALA_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
    "$header" | paste -sd. -)
major=${version%%.*}
minor=${version#*.}
minor=${minor%%.*}
# The ABI version of the SONAME (see build.rs): 0.MINOR below 1.0, MAJOR from 1.0 on.
if [ "$major" = 0 ]; then abi="0.$minor"; else abi="$major"; fi
for f in libmancala.so libmancala.a; do
    [ -f "$libdir/$f" ] || { echo "install.sh: $libdir/$f not found; run cargo build --release -p mancala-ffi" >&2; exit 1; }
done
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/mancala"
cp "$header" "$prefix/include/"
rm -f "$prefix/lib/libmancala.so" "$prefix/lib/libmancala.so.$abi"
cp "$libdir/libmancala.so" "$prefix/lib/libmancala.so.$version"
ln -s "libmancala.so.$version" "$prefix/lib/libmancala.so.$abi"
ln -s "libmancala.so.$abi" "$prefix/lib/libmancala.so"
cp "$libdir/libmancala.a" "$prefix/lib/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$here/mancala.pc.in" \
    > "$prefix/lib/pkgconfig/mancala.pc"
for f in mancala-config.cmake mancala-config-version.cmake; do
    sed -e "s|@VERSION@|$version|g" -e "s|@ABI@|$abi|g" "$here/cmake/$f.in" \
        > "$prefix/lib/cmake/mancala/$f"
done
echo "installed mancala $version under $prefix"
