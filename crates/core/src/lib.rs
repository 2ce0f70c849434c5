//! Queue Lab's pure logic: no web types, no I/O, fast native tests.

pub mod advisor;
pub mod format;
pub mod i18n;
pub mod input;
pub mod url;
pub mod vacuum;
