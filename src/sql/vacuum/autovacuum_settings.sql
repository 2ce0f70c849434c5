-- The autovacuum panel: a table's effective settings, the dead-tuple threshold they give,
-- and whether autovacuum would have started. Run flush_stats.sql first.
-- Autovacuum never runs in PGlite (no launcher process): the lab computes when it WOULD
-- and runs VACUUM itself. A server checks each table every autovacuum_naptime (60 s).
-- The formula is PostgreSQL 18's (relation_needs_vacanalyze):
--   dead-tuple threshold = min(threshold + scale_factor * reltuples, max_threshold)
--     (no cap when max_threshold = -1; reltuples < 0, never counted, counts as 0)
--   insert threshold     = insert_threshold + insert_scale_factor * reltuples * unfrozen
--     (unfrozen = share of pages not all-frozen); a queue trips this one too
-- Each setting is the table's reloption if set, else the server setting.
-- $1 text: the table, e.g. 'vac_delete.jobs'.
-- Returns one row:
--   vacuum_threshold bigint, scale_factor float8, max_threshold bigint,
--   threshold_from_table bool, scale_factor_from_table bool, max_threshold_from_table bool,
--   reltuples float8 (the estimate the formula uses: last VACUUM/ANALYZE),
--   dead_threshold float8, n_dead_tup bigint, would_vacuum_dead bool,
--   insert_threshold float8, n_ins_since_vacuum bigint, would_vacuum_insert bool,
--   autovacuum_on bool (reported on, yet it never runs here), autovacuum_count bigint
with t as (
  select c.oid,
         greatest(c.reltuples, 0)::float8 as reltuples,
         case when c.relpages > 0
              then 1 - least(c.relallfrozen, c.relpages)::float8 / c.relpages
              else 1 end as unfrozen,
         (select o.option_value from pg_options_to_table(c.reloptions) as o
           where o.option_name = 'autovacuum_vacuum_threshold')     as thr_opt,
         (select o.option_value from pg_options_to_table(c.reloptions) as o
           where o.option_name = 'autovacuum_vacuum_scale_factor')  as sf_opt,
         (select o.option_value from pg_options_to_table(c.reloptions) as o
           where o.option_name = 'autovacuum_vacuum_max_threshold') as max_opt,
         (select o.option_value from pg_options_to_table(c.reloptions) as o
           where o.option_name = 'autovacuum_vacuum_insert_threshold') as ins_thr_opt,
         (select o.option_value from pg_options_to_table(c.reloptions) as o
           where o.option_name = 'autovacuum_vacuum_insert_scale_factor') as ins_sf_opt
    from pg_class as c
   where c.oid = $1::regclass
),
e as (
  select t.*,
         coalesce(thr_opt, current_setting('autovacuum_vacuum_threshold'))::bigint     as thr,
         coalesce(sf_opt, current_setting('autovacuum_vacuum_scale_factor'))::float8   as sf,
         coalesce(max_opt, current_setting('autovacuum_vacuum_max_threshold'))::bigint as mx,
         coalesce(ins_thr_opt, current_setting('autovacuum_vacuum_insert_threshold'))::bigint as ins_thr,
         coalesce(ins_sf_opt, current_setting('autovacuum_vacuum_insert_scale_factor'))::float8 as ins_sf
    from t
),
th as (
  select e.*,
         case when e.mx >= 0 then least(e.thr + e.sf * e.reltuples, e.mx::float8)
              else e.thr + e.sf * e.reltuples end                      as dead_threshold,
         e.ins_thr + e.ins_sf * e.reltuples * e.unfrozen               as insert_threshold
    from e
)
select th.thr                         as vacuum_threshold,
       th.sf                          as scale_factor,
       th.mx                          as max_threshold,
       th.thr_opt is not null         as threshold_from_table,
       th.sf_opt is not null          as scale_factor_from_table,
       th.max_opt is not null         as max_threshold_from_table,
       th.reltuples,
       th.dead_threshold,
       s.n_dead_tup,
       s.n_dead_tup > th.dead_threshold                              as would_vacuum_dead,
       th.insert_threshold,
       s.n_ins_since_vacuum,
       th.ins_thr >= 0 and s.n_ins_since_vacuum > th.insert_threshold as would_vacuum_insert,
       current_setting('autovacuum')::bool                           as autovacuum_on,
       s.autovacuum_count
  from th
  join pg_stat_user_tables as s on s.relid = th.oid
