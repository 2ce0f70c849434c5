//! A test-only lab (cargo feature `stub-lab`, never in the shipped site): the smallest lab
//! there is, added as every lab is added (this folder with its `lab.tsv`, `assets/i18n/stub.tsv`,
//! and its line in `labs/ORDER`), so the tests over `labs::ALL` prove that nothing else needs changing:
//! the header, the home page, `?lab=stub` embeds, the e2e page list and its scans, its own
//! schema made by the runner.
//! It has the skeleton every lab has (src/house/skeleton.rs): `view/` is its page; `model.rs`,
//! `sql.rs` and `rows.rs` are empty and say what a real lab keeps there.
pub mod model;
pub mod rows;
pub mod sql;
pub mod view;

// Its descriptor (`LAB`, `ID`), written by build.rs from `lab.tsv` beside this file.
include!(concat!(env!("OUT_DIR"), "/labs/stub.rs"));
