//! L3 Bloat and VACUUM against real PGlite in headless Chromium, through the lab's own model
//! (src/labs/vacuum/model.rs): what these tests prove is what the lab shows.
//! Sizes are small (1,000–2,000 jobs a round) for speed.

use queue_lab::db::Db;
use queue_lab::labs::vacuum::model::{self, Hooks, Record, RunConfig, RunEnd, Step, Strategy};
use serde::Deserialize;
use std::cell::{Cell, RefCell};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const JOBS: u32 = 1500;

async fn lab() -> Db {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let page_map = model::setup(&db)
        .await
        .expect("the lab's tables are created");
    assert!(page_map, "pageinspect and pg_visibility load");
    db
}

fn cfg(jobs: u32, rounds: u32, strategies: &[Strategy]) -> RunConfig {
    RunConfig {
        jobs,
        rounds,
        batch: 500,
        strategies: strategies.to_vec(),
    }
}

async fn run(db: &Db, cfg: &RunConfig) -> Vec<Record> {
    let records = RefCell::new(Vec::new());
    let record = |r| records.borrow_mut().push(r);
    let hooks = Hooks {
        cancel: &Cell::new(false),
        progress: &|_| {},
        record: &record,
        map: None,
    };
    let end = model::run(db, cfg, 1, &hooks)
        .await
        .expect("the workload runs");
    assert_eq!(end, RunEnd::Finished);
    records.into_inner()
}

fn of(records: &[Record], s: Strategy, step: Step) -> Vec<Record> {
    records
        .iter()
        .filter(|r| r.strategy == s && r.step == step)
        .cloned()
        .collect()
}

#[derive(Deserialize)]
struct One<T> {
    v: T,
}

async fn scalar<T: serde::de::DeserializeOwned>(db: &Db, sql: &str) -> T {
    db.query::<One<T>>(sql, &[])
        .await
        .expect(sql)
        .first()
        .expect("one row")
        .v
}

async fn search_path(db: &Db) -> String {
    scalar::<String>(db, "select current_setting('search_path') as v").await
}

/// A run puts the search path back as it found it.
async fn assert_search_path_put_back(db: &Db) {
    assert_eq!(
        search_path(db).await,
        "lab, pg_catalog, public",
        "the search path is put back"
    );
}

#[wasm_bindgen_test]
async fn dead_tuples_and_heap_pages_grow_round_by_round_with_keep_rows_and_delete() {
    let db = lab().await;
    let records = run(&db, &cfg(JOBS, 3, &[Strategy::Keep, Strategy::Delete])).await;
    for s in [Strategy::Keep, Strategy::Delete] {
        let rounds = of(&records, s, Step::AfterRound);
        assert_eq!(rounds.len(), 3);
        let dead: Vec<i64> = rounds.iter().map(|r| r.measure.stats.n_dead_tup).collect();
        let pages: Vec<i64> = rounds.iter().map(|r| r.measure.stats.heap_pages).collect();
        assert_eq!(
            dead[0],
            2 * i64::from(JOBS),
            "{s:?}: two dead versions per job: {dead:?}"
        );
        assert!(
            dead[1] > dead[0] && dead[2] > dead[1],
            "{s:?}: dead tuples grow: {dead:?}"
        );
        assert!(
            pages[1] > pages[0] && pages[2] > pages[1],
            "{s:?}: heap grows: {pages:?}"
        );
        assert_eq!(rounds[2].measure.stats.vacuum_count, 0);
    }
    assert_eq!(
        of(&records, Strategy::Keep, Step::AfterRound)[2]
            .measure
            .stats
            .n_live_tup,
        3 * i64::from(JOBS)
    );
    assert_eq!(
        of(&records, Strategy::Delete, Step::AfterRound)[2]
            .measure
            .stats
            .n_live_tup,
        0
    );
    assert_search_path_put_back(&db).await;
    db.close().await;
}

#[wasm_bindgen_test]
async fn rotation_truncate_empties_the_rounds_table_with_no_vacuum() {
    let db = lab().await;
    let records = run(&db, &cfg(JOBS, 2, &[Strategy::Rotate])).await;
    let rounds = of(&records, Strategy::Rotate, Step::AfterRound);
    let truncated = of(&records, Strategy::Rotate, Step::AfterTruncate);
    assert_eq!((rounds.len(), truncated.len()), (2, 2));
    for (r, t) in rounds.iter().zip(&truncated) {
        assert_eq!(
            r.measure.stats.n_dead_tup,
            2 * i64::from(JOBS),
            "the round itself bloats"
        );
        assert!(r.measure.stats.heap_pages > 0);
        assert!(
            r.measure.claim.pages >= r.measure.stats.heap_pages,
            "the claim reads the bloated table"
        );
        let st = &t.measure.stats;
        assert_eq!(
            (st.n_dead_tup, st.n_live_tup, st.heap_pages),
            (0, 0, 0),
            "TRUNCATE empties it"
        );
        assert_eq!(st.vacuum_count, 0, "VACUUM never ran");
        assert_eq!(t.measure.claim.pages, 0, "the claim reads nothing");
    }
    assert!(model::page_map(&db, Strategy::Rotate)
        .await
        .unwrap()
        .is_empty());
    db.close().await;
}

/// The partitions of vac_partition.jobs now (pg_inherits), by name.
async fn partitions(db: &Db) -> Vec<String> {
    #[derive(Deserialize)]
    struct Part {
        name: String,
    }
    db.query::<Part>(
        "select c.relname::text as name from pg_inherits i join pg_class c on c.oid = i.inhrelid \
          where i.inhparent = 'vac_partition.jobs'::regclass order by c.relname",
        &[],
    )
    .await
    .expect("pg_inherits")
    .rows
    .into_iter()
    .map(|p| p.name)
    .collect()
}

#[wasm_bindgen_test]
async fn partitions_detach_and_drop_the_rounds_partition_with_no_vacuum_and_the_claim_stays_flat() {
    let db = lab().await;
    // Before a round the table has no partition; the round makes its own.
    assert_eq!(partitions(&db).await, Vec::<String>::new());
    let out = model::run_round(
        &db,
        Strategy::Partition,
        1,
        JOBS,
        500,
        &Cell::new(false),
        &|_| {},
        None,
    )
    .await
    .expect("a round on the partitioned table");
    assert_eq!(out.claimed, u64::from(JOBS));
    assert_eq!(partitions(&db).await, vec!["jobs_r1".to_string()]);
    // The parent has no storage: every figure is its partition's.
    let round1 = model::table_stats(&db, Strategy::Partition).await.unwrap();
    assert_eq!(
        round1.n_dead_tup,
        2 * i64::from(JOBS),
        "the round bloats its partition"
    );
    assert!(round1.heap_pages > 0);
    let map = model::page_map(&db, Strategy::Partition).await.unwrap();
    assert_eq!(
        map.len() as i64,
        round1.heap_pages,
        "the page map is the partition's pages"
    );
    assert_eq!(
        map.iter().map(|p| i64::from(p.dead)).sum::<i64>(),
        round1.n_dead_tup
    );
    model::partition_rotate(&db, 1)
        .await
        .expect("DETACH + DROP");
    assert_eq!(partitions(&db).await, vec!["jobs_r2".to_string()]);
    assert!(
        scalar::<bool>(
            &db,
            "select to_regclass('vac_partition.jobs_r1') is null as v"
        )
        .await,
        "the finished partition is gone, not only detached"
    );
    model::reset(&db).await.unwrap();

    // Three rounds through the lab's run, beside rotation by TRUNCATE and keeping rows.
    let strategies = [Strategy::Keep, Strategy::Rotate, Strategy::Partition];
    let records = run(&db, &cfg(JOBS, 3, &strategies)).await;
    let rounds = of(&records, Strategy::Partition, Step::AfterRound);
    let dropped = of(&records, Strategy::Partition, Step::AfterDrop);
    assert_eq!((rounds.len(), dropped.len()), (3, 3));
    assert!(of(&records, Strategy::Partition, Step::AfterTruncate).is_empty());
    for (r, d) in rounds.iter().zip(&dropped) {
        assert_eq!(
            r.measure.stats.n_dead_tup,
            2 * i64::from(JOBS),
            "round {}: the round itself bloats",
            r.round
        );
        assert_eq!(
            r.measure.stats.n_live_tup,
            i64::from(JOBS),
            "done rows, live"
        );
        assert!(
            r.measure.claim.pages >= r.measure.stats.heap_pages && r.measure.stats.heap_pages > 0,
            "round {}: the claim reads the round's partition",
            r.round
        );
        let st = &d.measure.stats;
        assert_eq!(
            (st.n_dead_tup, st.n_live_tup, st.heap_pages),
            (0, 0, 0),
            "round {}: DETACH + DROP leaves no dead tuple and no page",
            d.round
        );
        assert_eq!(st.vacuum_count, 0, "VACUUM never ran");
        assert_eq!(d.measure.claim.pages, 0, "the claim reads nothing");
        assert!(d.auto, "part of the strategy, on the charts");
    }
    // The claim's pages stay flat round after round, as rotation's do; keeping rows grows.
    let claim = |s| -> Vec<i64> {
        of(&records, s, Step::AfterRound)
            .iter()
            .map(|r| r.measure.claim.pages)
            .collect()
    };
    let (part, rot, keep) = (
        claim(Strategy::Partition),
        claim(Strategy::Rotate),
        claim(Strategy::Keep),
    );
    for i in 1..3 {
        assert!(
            (part[i] - part[0]).abs() <= 2,
            "partitions: flat {part:?} (rotation {rot:?})"
        );
        assert!((rot[i] - rot[0]).abs() <= 2, "rotation: flat {rot:?}");
    }
    assert!(
        keep[2] > 2 * part[2],
        "keeping rows reads more and more: {keep:?}, partitions {part:?}"
    );
    // The finished partitions are gone; the next round's, made ahead, is there, empty.
    assert_eq!(partitions(&db).await, vec!["jobs_r4".to_string()]);
    for round in 1..=3 {
        assert!(
            scalar::<bool>(
                &db,
                &format!("select to_regclass('vac_partition.jobs_r{round}') is null as v")
            )
            .await
        );
    }
    assert!(model::page_map(&db, Strategy::Partition)
        .await
        .unwrap()
        .is_empty());
    // The series the charts draw: 0 dead tuples and 0 pages after each round's drop.
    assert_eq!(
        model::series(&records, Strategy::Partition, model::Metric::DeadTuples),
        vec![(1, 0), (2, 0), (3, 0)]
    );
    assert_search_path_put_back(&db).await;
    db.close().await;
}

#[wasm_bindgen_test]
async fn vacuum_brings_dead_tuples_to_zero_delete_claim_reads_a_handful_keep_still_reads_every_page(
) {
    let db = lab().await;
    let jobs = 2000;
    let strategies = [Strategy::Keep, Strategy::Delete, Strategy::DeleteVacuum];
    let records = run(&db, &cfg(jobs, 1, &strategies)).await;

    let delete_before = &of(&records, Strategy::Delete, Step::AfterRound)[0].measure;
    assert!(delete_before.claim.seq_scan);
    assert!(
        delete_before.claim.pages >= delete_before.stats.heap_pages
            && delete_before.stats.heap_pages > 10,
        "before VACUUM the claim reads every page: {} of {}",
        delete_before.claim.pages,
        delete_before.stats.heap_pages
    );
    let delete = model::vacuum_and_measure(&db, Strategy::Delete)
        .await
        .unwrap();
    assert_eq!(delete.after.stats.n_dead_tup, 0);
    assert_eq!(delete.removed(), 2 * i64::from(jobs));
    assert!(
        delete.after.claim.pages <= 5,
        "a handful of pages after VACUUM: {}",
        delete.after.claim.pages
    );

    let keep = model::vacuum_and_measure(&db, Strategy::Keep)
        .await
        .unwrap();
    assert_eq!(keep.after.stats.n_dead_tup, 0);
    assert_eq!(
        keep.after.stats.n_live_tup,
        i64::from(jobs),
        "the done rows stay, live"
    );
    assert!(keep.after.claim.seq_scan);
    assert!(
        keep.after.claim.pages >= keep.after.stats.heap_pages && keep.after.stats.heap_pages > 10,
        "keep-rows still reads every page: {} of {}",
        keep.after.claim.pages,
        keep.after.stats.heap_pages
    );

    // DELETE + VACUUM does the same within the run, and gives the article's comparison.
    let (before, after) = model::article_pair(&records).expect("round 1 before and after VACUUM");
    assert!(
        before.pages > 10 * after.pages.max(1),
        "{} -> {}",
        before.pages,
        after.pages
    );
    assert!(after.pages <= 5);
    db.close().await;
}

#[wasm_bindgen_test]
async fn with_the_long_transaction_on_vacuum_leaves_the_dead_tuples_and_after_release_removes_them()
{
    let db = lab().await;
    let on = model::long_tx_begin(&db).await.unwrap();
    assert_eq!(on.gid, "lab_long_tx");
    run(&db, &cfg(JOBS, 1, &[Strategy::Delete])).await;
    let pinned = model::vacuum_and_measure(&db, Strategy::Delete)
        .await
        .unwrap();
    assert_eq!(pinned.dead_before, 2 * i64::from(JOBS));
    assert_eq!(pinned.removed(), 0, "VACUUM removed nothing");
    assert_eq!(pinned.after.stats.n_dead_tup, 2 * i64::from(JOBS));
    let map = model::page_map(&db, Strategy::Delete).await.unwrap();
    assert_eq!(
        map.iter().map(|p| i64::from(p.dead)).sum::<i64>(),
        2 * i64::from(JOBS),
        "still on their pages"
    );

    model::long_tx_release(&db).await.unwrap();
    assert!(model::long_tx_status(&db).await.unwrap().is_none());
    let released = model::vacuum_and_measure(&db, Strategy::Delete)
        .await
        .unwrap();
    assert_eq!(released.removed(), 2 * i64::from(JOBS));
    assert_eq!(released.after.stats.n_dead_tup, 0);
    let map = model::page_map(&db, Strategy::Delete).await.unwrap();
    assert_eq!(map.iter().map(|p| p.dead).sum::<i32>(), 0);
    db.close().await;
}

#[wasm_bindgen_test]
async fn the_index_friendly_claim_uses_the_partial_index_and_the_articles_claim_does_not() {
    let db = lab().await;
    // The article's figure: 20,000 ready jobs.
    let c = model::compare_plans(&db, 20_000).await.unwrap();
    let (a, i) = (&c.article, &c.indexed);
    assert!(
        a.summary.seq_scan && a.summary.sort && !a.summary.uses_jobs_ready,
        "article: {}",
        a.summary.scans
    );
    assert!(!a
        .nodes
        .iter()
        .any(|n| n.index_name.as_deref() == Some("jobs_ready")));
    assert!(
        i.summary.uses_jobs_ready && !i.summary.seq_scan && !i.summary.sort,
        "indexed: {}",
        i.summary.scans
    );
    assert!(i
        .nodes
        .iter()
        .any(|n| n.index_name.as_deref() == Some("jobs_ready")));
    assert!(
        a.summary.pages > 10 * i.summary.pages,
        "{} vs {} pages",
        a.summary.pages,
        i.summary.pages
    );
    assert!(
        i.summary.pages <= 30,
        "a handful of pages: {}",
        i.summary.pages
    );
    assert!(
        i.jobs_per_s > a.jobs_per_s,
        "{} vs {} jobs/s",
        i.jobs_per_s,
        a.jobs_per_s
    );
    assert_eq!(search_path(&db).await, "lab, pg_catalog, public");
    db.close().await;
}

#[wasm_bindgen_test]
async fn every_number_the_model_reports_matches_a_direct_sql_check() {
    #[derive(Deserialize, Debug, PartialEq)]
    struct Direct {
        heap_bytes: i64,
        heap_pages: i64,
        index_bytes: i64,
        live: i64,
        dead: i64,
    }
    #[derive(Deserialize)]
    struct Explain {
        #[serde(rename = "QUERY PLAN")]
        plan: serde_json::Value,
    }
    let db = lab().await;
    run(&db, &cfg(JOBS, 1, &[Strategy::Keep, Strategy::Delete])).await;
    for s in [Strategy::Keep, Strategy::Delete] {
        let m = model::measure(&db, s).await.unwrap();
        db.query::<serde_json::Value>("select pg_stat_force_next_flush()", &[])
            .await
            .unwrap();
        let d = db
            .query::<Direct>(
                "select pg_relation_size(c.oid) as heap_bytes, pg_relation_size(c.oid) / 8192 as heap_pages, \
                 pg_indexes_size(c.oid) as index_bytes, s.n_live_tup as live, s.n_dead_tup as dead \
                 from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.oid = $1::regclass",
                &[s.table().into()],
            )
            .await
            .unwrap()
            .first()
            .unwrap();
        assert_eq!(
            (
                m.stats.heap_bytes,
                m.stats.heap_pages,
                m.stats.index_bytes,
                m.stats.n_live_tup,
                m.stats.n_dead_tup
            ),
            (d.heap_bytes, d.heap_pages, d.index_bytes, d.live, d.dead),
            "{s:?}"
        );
        assert_eq!(
            m.indexes.iter().map(|i| i.bytes).sum::<i64>(),
            d.index_bytes
        );
        // The page map counts each page's line pointers: the same live and dead.
        let map = model::page_map(&db, s).await.unwrap();
        assert_eq!(map.len() as i64, d.heap_pages);
        assert_eq!(
            map.iter().map(|p| i64::from(p.live)).sum::<i64>(),
            d.live,
            "{s:?} live"
        );
        assert_eq!(
            map.iter().map(|p| i64::from(p.dead)).sum::<i64>(),
            d.dead,
            "{s:?} dead"
        );
        // Pages read: EXPLAIN's own top-node buffer count, read directly.
        let tx = db.begin().await.unwrap();
        let plan = tx
            .query::<Explain>(
                &format!(
                    "explain (analyze, buffers, format json) update {} set status = 'running', attempts = attempts + 1, \
                     locked_until = now() + interval '30 seconds' where id = (select id from {0} \
                     where (status = 'ready' and run_at <= now()) or (status = 'running' and locked_until < now()) \
                     order by priority desc, run_at for update skip locked limit 1) returning id",
                    s.table()
                ),
                &[],
            )
            .await
            .unwrap()
            .first()
            .unwrap()
            .plan;
        tx.rollback().await.unwrap();
        let top = &plan[0]["Plan"];
        let pages = top["Shared Hit Blocks"].as_i64().unwrap()
            + top["Shared Read Blocks"].as_i64().unwrap();
        assert_eq!(m.claim.pages, pages, "{s:?} claim pages");
        assert!(m.claim.pages >= d.heap_pages);
    }
    // Autovacuum threshold: 50 + 0.2 × reltuples, from pg_class directly.
    let a = model::autovacuum_settings(&db, Strategy::Delete)
        .await
        .unwrap();
    let reltuples = scalar::<f64>(&db, "select greatest(reltuples, 0)::float8 as v from pg_class where oid = 'vac_delete.jobs'::regclass").await;
    assert_eq!(a.dead_threshold, 50.0 + 0.2 * reltuples);
    assert_eq!(a.n_dead_tup, 2 * i64::from(JOBS));
    assert!(a.would_vacuum_dead && a.autovacuum_on);
    assert_eq!(a.autovacuum_count, 0, "autovacuum never runs in PGlite");
    db.close().await;
}

#[wasm_bindgen_test]
async fn a_cancelled_run_stops_between_batches_and_leaves_the_lab_usable() {
    let db = lab().await;
    let cancel = Cell::new(false);
    let records = RefCell::new(Vec::new());
    let config = cfg(2000, 3, &[Strategy::Keep, Strategy::Delete]);
    let progress = |p: model::Progress| {
        if p.done >= 500 {
            cancel.set(true);
        }
    };
    let record = |r| records.borrow_mut().push(r);
    let hooks = Hooks {
        cancel: &cancel,
        progress: &progress,
        record: &record,
        map: None,
    };
    let end = model::run(&db, &config, 1, &hooks).await.unwrap();
    assert_eq!(end, RunEnd::Cancelled);
    assert!(
        records.borrow().is_empty(),
        "stopped within the first round"
    );
    assert_eq!(search_path(&db).await, "lab, pg_catalog, public");
    let left = scalar::<i64>(
        &db,
        "select count(*) filter (where status = 'ready') as v from vac_keep.jobs",
    )
    .await;
    assert_eq!(left, 1500, "only the first batch was done");
    // The lab still works: a full run goes through and finishes the leftovers too.
    let records = run(&db, &cfg(1000, 1, &[Strategy::Keep])).await;
    assert_eq!(records[0].measure.stats.n_live_tup, 3000);
    assert_eq!(
        scalar::<i64>(
            &db,
            "select count(*) as v from vac_keep.jobs where status <> 'done'"
        )
        .await,
        0
    );
    db.close().await;
}

#[wasm_bindgen_test]
async fn per_table_autovacuum_settings_move_the_threshold_and_vacuum_full_takes_access_exclusive() {
    let db = lab().await;
    run(&db, &cfg(JOBS, 1, &[Strategy::Delete])).await;
    model::vacuum(&db, Strategy::Delete).await.unwrap();
    let input = model::parse_autovacuum("100", "0.01", "-1").unwrap();
    let stmt = model::set_autovacuum(&db, Strategy::Delete, input)
        .await
        .unwrap();
    assert!(
        stmt.starts_with("alter table vac_delete.jobs set (autovacuum_vacuum_threshold = '100'"),
        "{stmt}"
    );
    let a = model::autovacuum_settings(&db, Strategy::Delete)
        .await
        .unwrap();
    assert!(a.threshold_from_table && a.scale_factor_from_table);
    assert_eq!(a.dead_threshold, 100.0 + 0.01 * a.reltuples);
    let reset = model::parse_autovacuum("", "", "").unwrap();
    model::set_autovacuum(&db, Strategy::Delete, reset)
        .await
        .unwrap();
    let a = model::autovacuum_settings(&db, Strategy::Delete)
        .await
        .unwrap();
    assert!(!a.threshold_from_table);
    assert_eq!(a.vacuum_threshold, 50);

    let locks = model::vacuum_full_lock(&db).await.unwrap();
    assert_eq!(locks.len(), 1);
    assert_eq!(locks[0].mode, "AccessExclusiveLock");
    assert!(locks[0].granted && locks[0].conflicts_with_select && locks[0].conflicts_with_insert);
    assert_eq!(
        scalar::<i64>(
            &db,
            "select count(*) as v from pg_locks where relation = 'vac_scratch.jobs'::regclass"
        )
        .await,
        0,
        "the demonstration released its lock"
    );
    let (before, after) = model::vacuum_full(&db).await.unwrap();
    assert_ne!(before.filenode, after.filenode, "a new file");
    assert!(after.heap_pages < before.heap_pages);

    // Start over: everything back to empty tables.
    model::reset(&db).await.unwrap();
    let st = model::table_stats(&db, Strategy::Delete).await.unwrap();
    assert_eq!((st.heap_pages, st.n_dead_tup, st.n_tup_ins), (0, 0, 0));
    db.close().await;
}

// ---- The lab's model type: the page map during a round, the tour, the share link. ----

use model::{Action, Lab, MapWatch, PageCell, Snapshot};
use queue_lab::labs::harness::LabModel;
use queue_lab::labs::vacuum::tour::TOUR;

/// Runs `actions` on `lab`, each change shown during them applied to `shown`.
async fn apply(db: &Db, lab: &mut Lab, actions: Vec<Action>, shown: &RefCell<Snapshot>) {
    for a in actions {
        let what = format!("{a:?}");
        lab.act_live(db, a, &Cell::new(false), &|change| {
            change(&mut shown.borrow_mut())
        })
        .await
        .expect(&what);
    }
}

#[wasm_bindgen_test]
async fn the_page_map_is_read_between_batches_of_the_watched_tables_round_and_changes() {
    let db = lab().await;
    let records = RefCell::new(Vec::new());
    // (results-table lines so far, dead tuples on the map, pages on the map)
    let reads = RefCell::new(Vec::<(usize, i64, usize)>::new());
    let read = |pages: Vec<PageCell>| {
        let dead = pages.iter().map(|p| i64::from(p.dead)).sum();
        reads
            .borrow_mut()
            .push((records.borrow().len(), dead, pages.len()));
    };
    let record = |r| records.borrow_mut().push(r);
    let hooks = Hooks {
        cancel: &Cell::new(false),
        progress: &|_| {},
        record: &record,
        map: Some(MapWatch {
            strategy: Strategy::Delete,
            every_ms: 0.0,
            budget: None,
            started: 0.0,
            watched: &|| true,
            read: &read,
            spent: Cell::default(),
        }),
    };
    let config = cfg(2000, 1, &[Strategy::Keep, Strategy::Delete]);
    let end = model::run(&db, &config, 1, &hooks).await.unwrap();
    assert_eq!(end, RunEnd::Finished);
    let reads = reads.into_inner();
    assert_eq!(
        reads.len(),
        4,
        "one read after each of DELETE's four batches, none during keep-rows': {reads:?}"
    );
    assert!(
        reads.iter().all(|r| r.0 == 1),
        "every read falls inside DELETE's round (after keep-rows' line, before DELETE's): {reads:?}"
    );
    assert!(
        reads.first().unwrap().1 < reads.last().unwrap().1,
        "the map changes as the round goes: {reads:?}"
    );
    db.close().await;
}

/// Reads of Delete's page map during a run of keep-rows then DELETE (2,000 jobs a round in
/// batches of 500, a read due after every batch): how many, their time, the run's time.
async fn map_reads(db: &Db, budget: Option<f64>, watched: bool) -> (usize, f64, f64) {
    let reads = Cell::new(0usize);
    let read = |_: Vec<PageCell>| reads.set(reads.get() + 1);
    let started = queue_lab::db::now_ms();
    let watch = MapWatch {
        strategy: Strategy::Delete,
        every_ms: 0.0,
        budget,
        started,
        watched: &|| watched,
        read: &read,
        spent: Cell::default(),
    };
    let spent = {
        let hooks = Hooks {
            cancel: &Cell::new(false),
            progress: &|_| {},
            record: &|_| {},
            map: Some(watch),
        };
        let config = cfg(2000, 1, &[Strategy::Keep, Strategy::Delete]);
        assert_eq!(
            model::run(db, &config, 1, &hooks).await.unwrap(),
            RunEnd::Finished
        );
        hooks.map.unwrap().spent.get().0
    };
    (reads.get(), spent, queue_lab::db::now_ms() - started)
}

#[wasm_bindgen_test]
async fn the_page_map_is_not_read_during_a_round_while_nobody_watches_it() {
    let db = lab().await;
    let (reads, _, _) = map_reads(&db, None, false).await;
    assert_eq!(reads, 0, "the map off screen (or the tab hidden): no read");
    db.close().await;
}

#[wasm_bindgen_test]
async fn the_page_map_reads_during_a_run_keep_within_their_share_of_its_time() {
    let db = lab().await;
    let (free, _, _) = map_reads(&db, None, true).await;
    // A share so small that the first read (its cost not known yet) is the only one.
    let (budgeted, spent, run_ms) = map_reads(&db, Some(0.001), true).await;
    assert_eq!(
        free, 4,
        "without a budget a read after each of DELETE's four batches"
    );
    assert_eq!(budgeted, 1, "with one, the first read, then none that would not fit: spent {spent:.1} of {run_ms:.1} ms");
    db.close().await;
}

#[wasm_bindgen_test]
async fn during_a_run_the_lab_shows_the_selected_tables_page_map_while_the_round_goes_on() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let mut lab = Lab::setup(&db).await.unwrap();
    assert!(lab.state.page_map && lab.state.selected == Strategy::Delete);
    // Each change the run shows: (still running, the page map's pages if it changed).
    let seen = RefCell::new(Vec::<(bool, Option<usize>)>::new());
    let shown = RefCell::new(Snapshot::default());
    let action = Action::Run(RunConfig {
        jobs: model::JOBS_DEFAULT,
        rounds: 1,
        batch: model::BATCH_DEFAULT,
        strategies: vec![Strategy::Delete],
    });
    lab.act_live(&db, action, &Cell::new(false), &|change| {
        let mut s = shown.borrow_mut();
        let before = s.pages.clone();
        change(&mut s);
        let map = (s.pages != before).then(|| s.pages.as_ref().map_or(0, |p| p.1.len()));
        seen.borrow_mut().push((s.running.is_some(), map));
    })
    .await
    .unwrap();
    let seen = seen.into_inner();
    let during: Vec<usize> = seen
        .iter()
        .filter_map(|(running, map)| map.filter(|_| *running))
        .collect();
    assert!(
        !during.is_empty() && during.iter().all(|p| *p > 0),
        "the page map refreshed while the round ran (at most every {} ms): {seen:?}",
        model::MAP_EVERY_MS
    );
    assert!(shown.borrow().running.is_none(), "the run's end clears it");
    db.close().await;
}

/// A fresh lab, tour step `i` run; the lab and what the view would show.
/// What the lab's last VACUUM removed from `strategy`'s table.
fn removed(lab: &Lab, strategy: Strategy) -> &model::Removed {
    lab.state
        .removed
        .iter()
        .find(|r| r.strategy == strategy)
        .unwrap()
}

async fn tour_step(db: &Db, i: usize) -> (Lab, Snapshot) {
    let mut lab = Lab::setup(db).await.unwrap();
    let shown = RefCell::new(Snapshot::default());
    apply(db, &mut lab, (TOUR[i].actions)(), &shown).await;
    let snap = lab.snapshot(db).await.unwrap();
    (lab, snap)
}

#[wasm_bindgen_test]
async fn each_tour_step_runs_and_shows_what_its_text_says() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let jobs = i64::from(model::JOBS_DEFAULT);
    let after_round = |l: &Lab, s| of(&l.state.records, s, Step::AfterRound);

    // 1: one round: two dead versions per job; the claim reads every page; DELETE's map
    // shows dead rows.
    let (l, snap) = tour_step(&db, 0).await;
    for s in [Strategy::Keep, Strategy::Delete] {
        let r = &after_round(&l, s)[0].measure;
        assert_eq!(r.stats.n_dead_tup, 2 * jobs, "{s:?}");
        assert!(
            r.claim.pages >= r.stats.heap_pages && r.stats.heap_pages > 100,
            "{s:?}"
        );
    }
    let (on, pages) = snap.pages.expect("the page map");
    assert_eq!(on, Strategy::Delete);
    assert!(pages.iter().map(|p| i64::from(p.dead)).sum::<i64>() > 0);

    // 2: VACUUM removes every dead tuple of DELETE; the claim then reads a handful of pages.
    let (l, _) = tour_step(&db, 1).await;
    let d = removed(&l, Strategy::Delete);
    assert_eq!((d.removed, d.dead_before), (2 * jobs, 2 * jobs));
    let after = of(&l.state.records, Strategy::Delete, Step::AfterVacuum);
    assert!(after.last().unwrap().measure.claim.pages <= 5);

    // 3: the long transaction pins the horizon: VACUUM removes nothing.
    let (l, snap) = tour_step(&db, 2).await;
    assert!(snap.long_tx.is_some(), "the long transaction is on");
    let d = removed(&l, Strategy::Delete);
    assert_eq!((d.removed, d.dead_before), (0, 2 * jobs));

    // 4: three rounds: rotation's table is empty after each TRUNCATE, DELETE's grows.
    let (l, _) = tour_step(&db, 3).await;
    let truncated = of(&l.state.records, Strategy::Rotate, Step::AfterTruncate);
    assert_eq!(truncated.len(), 3);
    assert!(truncated
        .iter()
        .all(|r| (r.measure.stats.n_dead_tup, r.measure.stats.heap_pages) == (0, 0)));
    // The same zeros after each DETACH + DROP of the partitions' table.
    let dropped = of(&l.state.records, Strategy::Partition, Step::AfterDrop);
    assert_eq!(dropped.len(), 3);
    assert!(dropped
        .iter()
        .all(|r| (r.measure.stats.n_dead_tup, r.measure.stats.heap_pages) == (0, 0)));
    let dead: Vec<i64> = after_round(&l, Strategy::Delete)
        .iter()
        .map(|r| r.measure.stats.n_dead_tup)
        .collect();
    assert!(
        dead.len() == 3 && dead[0] < dead[1] && dead[1] < dead[2],
        "{dead:?}"
    );
    model::long_tx_release(&db).await.unwrap();
    db.close().await;
}

/// What a learner sees of a snapshot, without the timings and the transaction id.
fn facts(s: &Snapshot) -> String {
    let records: Vec<_> = s
        .state
        .records
        .iter()
        .map(|r| {
            let st = &r.measure.stats;
            (
                r.strategy,
                r.round,
                r.step,
                st.heap_pages,
                st.n_live_tup,
                st.n_dead_tup,
                r.measure.claim.pages,
            )
        })
        .collect();
    let pages = s.pages.as_ref().map(|(t, p)| {
        (
            *t,
            p.iter()
                .map(|c| (c.page, c.live, c.dead, c.unused, c.all_visible))
                .collect::<Vec<_>>(),
        )
    });
    let autovac = s
        .autovac
        .as_ref()
        .map(|(t, a)| (*t, a.dead_threshold, a.n_dead_tup, a.scale_factor));
    format!(
        "{:?}\n{records:?}\n{:?}\n{}\n{pages:?}\n{autovac:?}\n{:?}",
        s.state.selected,
        s.state.removed,
        s.long_tx.is_some(),
        s.state.autovacuum_ran
    )
}

#[wasm_bindgen_test]
async fn a_share_link_replayed_on_a_fresh_database_gives_the_same_state() {
    let db = queue_lab::testing::fresh_db().await.expect("PGlite opens");
    let mut lab = Lab::setup(&db).await.unwrap();
    let shown = RefCell::new(Snapshot::default());
    let actions = vec![
        Action::Run(cfg(1500, 2, &model::strategies(false))),
        Action::Select(Strategy::Keep),
        Action::LongTx(true),
        Action::Vacuum,
        Action::Autovacuum(
            Strategy::Keep,
            model::parse_autovacuum("100", "0.05", "").unwrap(),
        ),
        Action::LongTx(false),
        Action::Run(cfg(1000, 1, &model::strategies(true))),
        // The partitioned table's page map: its partitions' pages; no autovacuum figures.
        Action::Select(Strategy::Partition),
    ];
    apply(&db, &mut lab, actions.clone(), &shown).await;
    assert_eq!(lab.history, actions, "every action done is in the link");
    let link = queue_lab::labs::vacuum::share::encode(&lab.history);
    let before = facts(&lab.snapshot(&db).await.unwrap());
    db.close().await;

    // "After reload": a new database, the link's actions replayed on fresh tables.
    let db = queue_lab::testing::fresh_db()
        .await
        .expect("PGlite opens again");
    let mut again = Lab::setup(&db).await.unwrap();
    apply(
        &db,
        &mut again,
        queue_lab::labs::vacuum::share::decode(&link).unwrap(),
        &shown,
    )
    .await;
    let after = facts(&again.snapshot(&db).await.unwrap());
    assert_eq!(before, after, "link: {link}");
    assert_eq!(again.history, lab.history);
    db.close().await;
}

#[wasm_bindgen_test]
async fn after_a_cancelled_run_the_next_run_starts_over_so_every_strategy_has_the_same_rounds() {
    let db = lab().await;
    let mut lab = Lab::setup(&db).await.expect("setup");
    let shown = RefCell::new(Snapshot::default());
    // One finished round first: what a run after it continues.
    let strategies = [Strategy::Keep, Strategy::Delete];
    let one_round = || vec![Action::Run(cfg(1000, 1, &strategies))];
    apply(&db, &mut lab, one_round(), &shown).await;
    assert_eq!(lab.next_round(), 2);
    // Cancelled once Keep has done round 2 and Delete is half-way through it: the tables are
    // uneven, as when the learner leaves the lab during a run.
    let cancel = Cell::new(false);
    let out = lab
        .act_live(
            &db,
            Action::Run(cfg(1000, 2, &strategies)),
            &cancel,
            &|change| {
                let mut s = shown.borrow_mut();
                change(&mut s);
                let keep_did_round_2 = s
                    .state
                    .records
                    .iter()
                    .any(|r| r.strategy == Strategy::Keep && r.round == 2);
                if keep_did_round_2
                    && s.running.as_ref().is_some_and(|r| {
                        r.at.strategy == Strategy::Delete && r.at.round == 2 && r.at.done >= 500
                    })
                {
                    cancel.set(true);
                }
            },
        )
        .await
        .expect("the cancelled run");
    assert_eq!(
        out.as_ref().map(|o| o.tone),
        Some(queue_lab::labs::harness::Tone::Warn),
        "{out:?}"
    );
    assert!(lab.state.interrupted);
    let rounds_of = |lab: &Lab, s: Strategy| -> Vec<u32> {
        let mut r: Vec<u32> = lab
            .state
            .records
            .iter()
            .filter(|r| r.strategy == s && r.step == Step::AfterRound)
            .map(|r| r.round)
            .collect();
        r.dedup();
        r
    };
    assert_eq!(rounds_of(&lab, Strategy::Keep), [1, 2]);
    assert_eq!(
        rounds_of(&lab, Strategy::Delete),
        [1],
        "cancelled within Delete's round 2"
    );
    // The next run starts over: fresh tables, round 1 for both, and a history of this run only.
    let out = lab
        .act_live(
            &db,
            Action::Run(cfg(1000, 1, &strategies)),
            &Cell::new(false),
            &|_| {},
        )
        .await
        .expect("the run after");
    assert_eq!(
        out.as_ref().map(|o| o.msg.key.as_str()),
        Some("vacuum.run.done_fresh"),
        "{out:?}"
    );
    assert!(!lab.state.interrupted);
    assert_eq!(rounds_of(&lab, Strategy::Keep), [1]);
    assert_eq!(rounds_of(&lab, Strategy::Delete), [1]);
    assert_eq!(lab.history.len(), 1, "{:?}", lab.history);
    let live = scalar::<i64>(&db, "select count(*) as v from vac_keep.jobs").await;
    assert_eq!(live, 1000, "Keep's table holds this run's jobs only");
    // A run after a finished one continues the tables, as before.
    apply(&db, &mut lab, one_round(), &shown).await;
    assert_eq!(rounds_of(&lab, Strategy::Delete), [1, 2]);
    db.close().await;
}
