//! Gives the shared library `libmancala.so` its SONAME on Linux, so that programs record the
//! ABI version they were linked against and the installed file can carry a versioned name
//! (`install.sh` installs `libmancala.so.<version>` with the links `libmancala.so.<abi>` and
//! `libmancala.so`).
//!
//! The ABI part follows Cargo's compatibility rule for the crate version: below 1.0 a minor
//! version may break compatibility, so 0.2.x is `libmancala.so.0.2`; from 1.0 on the major
//! version is, so 1.x.y would be `libmancala.so.1`.
//!
//! Writes the Rust source of the `mancala_kalah_*` and `mancala_bao_*` functions into
//! `OUT_DIR`, from the template `build/front_ends.rs` and the table `build/front_ends.md`.

#[path = "build/front_ends.rs"]
mod front_ends;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/front_ends.rs");
    println!("cargo:rerun-if-changed=build/front_ends.md");
    let out_dir =
        std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let table = std::fs::read_to_string("build/front_ends.md").expect("read build/front_ends.md");
    for (name, source) in front_ends::generate(&table) {
        let path = out_dir.join(name);
        // Written only when it changed, so that an unchanged file keeps its time stamp.
        if std::fs::read_to_string(&path).ok().as_deref() != Some(source.as_str()) {
            std::fs::write(&path, source)
                .unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        }
    }

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
