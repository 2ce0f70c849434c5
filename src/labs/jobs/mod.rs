//! L1 Job queue: the article's `jobs` table on real PGlite.
pub mod model;
pub mod view;
pub const BUILT: bool = true;
