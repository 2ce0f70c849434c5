//! L3's strategies (how finished jobs leave the queue) and the steps of a round at which
//! the tables are measured, with the names the lab's SQL files
//! and catalog give them. For: the lab (`src/labs/vacuum`) and `pgcheck vacuum`, which run
//! the same rounds and must agree on the schemas. Not for: the SQL itself (each side
//! includes its own `.sql` files and picks the completing statement by
//! [`Strategy::deletes_on_complete`]).

/// How finished jobs leave the queue. Each strategy has its own copy of the article's table.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum Strategy {
    Keep,
    #[default]
    Delete,
    DeleteVacuum,
    Rotate,
    /// Rotation by partitions: a partition per round, DETACHed and DROPped when it is done.
    Partition,
}

impl Strategy {
    pub const ALL: [Strategy; 5] = [
        Strategy::Keep,
        Strategy::Delete,
        Strategy::DeleteVacuum,
        Strategy::Rotate,
        Strategy::Partition,
    ];

    /// The schema `setup_tables.sql` creates for it (`use_strategy.sql` takes it).
    pub fn schema(self) -> &'static str {
        match self {
            Strategy::Keep => "vac_keep",
            Strategy::Delete => "vac_delete",
            Strategy::DeleteVacuum => "vac_delete_vacuum",
            Strategy::Rotate => "vac_rotate",
            Strategy::Partition => "vac_partition",
        }
    }

    /// The table, schema-qualified, as the measuring statements take it.
    pub fn table(self) -> &'static str {
        match self {
            Strategy::Keep => "vac_keep.jobs",
            Strategy::Delete => "vac_delete.jobs",
            Strategy::DeleteVacuum => "vac_delete_vacuum.jobs",
            Strategy::Rotate => "vac_rotate.jobs",
            Strategy::Partition => "vac_partition.jobs",
        }
    }

    /// A short id for element ids, test selectors and share links.
    pub fn id(self) -> &'static str {
        match self {
            Strategy::Keep => "keep",
            Strategy::Delete => "delete",
            Strategy::DeleteVacuum => "delete_vacuum",
            Strategy::Rotate => "rotate",
            Strategy::Partition => "partition",
        }
    }

    pub fn parse(id: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Whether a finished job is DELETEd (`complete_delete.sql`); the others mark it 'done'
    /// (`complete_done.sql`) and leave the rows to a TRUNCATE or a dropped partition, or keep them.
    pub fn deletes_on_complete(self) -> bool {
        matches!(self, Strategy::Delete | Strategy::DeleteVacuum)
    }

    /// Whether the table is partitioned: it has no storage of its own (its partitions
    /// have), and takes no per-table autovacuum settings (PostgreSQL refuses them on a
    /// partitioned table; each partition is its own table to autovacuum).
    pub fn partitioned(self) -> bool {
        self == Strategy::Partition
    }
}

/// When a line of the results table was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Step {
    AfterRound,
    AfterVacuum,
    AfterTruncate,
    /// The finished round's partition DETACHed and DROPped (rotation by partitions).
    AfterDrop,
}

#[cfg(test)]
mod tests {
    use super::Strategy;

    #[test]
    fn every_strategy_has_its_own_id_schema_and_table_and_parses_back_from_its_id() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::parse(s.id()), Some(s));
            assert_eq!(s.table(), format!("{}.jobs", s.schema()));
        }
        for names in [
            Strategy::ALL.map(Strategy::id),
            Strategy::ALL.map(Strategy::schema),
        ] {
            let mut names = names.to_vec();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), Strategy::ALL.len());
        }
        assert_eq!(Strategy::parse("vacuum"), None);
    }

    #[test]
    fn only_the_delete_strategies_delete_a_finished_job() {
        let deleting: Vec<Strategy> = Strategy::ALL
            .into_iter()
            .filter(|s| s.deletes_on_complete())
            .collect();
        assert_eq!(deleting, [Strategy::Delete, Strategy::DeleteVacuum]);
    }
}
