//! Gives the shared library `libmancala.so` its SONAME on Linux, so that programs record the
//! ABI version they were linked against and the installed file can carry a versioned name
//! (`install.sh` installs `libmancala.so.<version>` with the links `libmancala.so.<abi>` and
//! `libmancala.so`).
//!
//! The ABI part follows Cargo's compatibility rule for the crate version: below 1.0 a minor
//! version may break compatibility, so 0.2.x is `libmancala.so.0.2`; from 1.0 on the major
//! version is, so 1.x.y would be `libmancala.so.1`.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os != "linux" {
        return;
    }
    let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_default();
    let minor = std::env::var("CARGO_PKG_VERSION_MINOR").unwrap_or_default();
    let abi = if major == "0" {
        format!("0.{minor}")
    } else {
        major
    };
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libmancala.so.{abi}");
}
