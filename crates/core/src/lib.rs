//! Queue Lab's pure logic: no web types, no I/O, fast native tests.

pub mod advisor;
pub mod format;
pub mod i18n;
pub mod input;
/// One constant per key of the advisor's catalog (`assets/i18n/leave.tsv`), written by
/// `build.rs`. Public, unlike the app's `keys` module: the app names a few (an input error's
/// kind) and this crate's tests name them. So an unused one is not dead code here; the test
/// `every_message_key_is_reachable_so_none_is_dead` fails on it instead (every key in
/// [`keys::ALL`] must be emitted by some workload), which is stronger.
pub mod keys {
    include!(concat!(env!("OUT_DIR"), "/keys.rs"));
}
pub mod sql_lex;
pub mod url;
pub mod vacuum;
