#!/bin/sh
# Installs the C API of mancala under PREFIX (default /usr/local):
#   PREFIX/include/mancala.h, PREFIX/lib/libmancala.so, PREFIX/lib/libmancala.a,
#   PREFIX/lib/pkgconfig/mancala.pc
# Build the libraries first: cargo build --release -p mancala-ffi
# LIBDIR overrides where the built libraries are taken from (default: target/release).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
prefix=${1:-/usr/local}
libdir=${LIBDIR:-$root/target/release}
version=$(sed -n 's/^#define MANCALA_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
    "$root/include/mancala.h" | paste -sd. -)
for f in libmancala.so libmancala.a; do
    [ -f "$libdir/$f" ] || { echo "install.sh: $libdir/$f not found; run cargo build --release -p mancala-ffi" >&2; exit 1; }
done
mkdir -p "$prefix/include" "$prefix/lib/pkgconfig"
cp "$root/include/mancala.h" "$prefix/include/"
cp "$libdir/libmancala.so" "$libdir/libmancala.a" "$prefix/lib/"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" "$here/mancala.pc.in" \
    > "$prefix/lib/pkgconfig/mancala.pc"
echo "installed mancala $version under $prefix"
