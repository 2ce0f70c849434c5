//! For the headless tests: a fresh database as the shell leaves it at start.

use crate::db::{Db, DbError};

/// A fresh PostgreSQL with the lab clock (`lab.now()`) installed, as the labs find it.
pub async fn fresh_db() -> Result<Db, DbError> {
    let db = Db::open_for_tests().await?;
    crate::clock::install(&db).await?;
    Ok(db)
}
