//! The stub lab's statements: none. A real lab names here each `.sql` file it runs from
//! `src/sql/<slug>/`, shown verbatim in the SQL log (see `src/labs/jobs/sql.rs`).
