//! The stub lab's row types: none. A real lab keeps here the rows its statements return
//! and what is derived from them without SQL (see `src/labs/jobs/rows.rs`).
