-- Challenge vacuum-autovacuum: autovacuum on the DELETE on completion table starts by 1,000
-- dead tuples at any size: its threshold, min(threshold + scale factor x rows, max
-- threshold), is capped at 1,000 or less, or does not grow (scale factor 0) from a base of
-- 1,000 or less. Each setting is the table's reloption if set, else the server's (as
-- autovacuum_settings.sql reads them); autovacuum must not be turned off for the table.
with o as (
  select (select v.option_value from pg_options_to_table(c.reloptions) as v
           where v.option_name = 'autovacuum_vacuum_threshold')     as thr,
         (select v.option_value from pg_options_to_table(c.reloptions) as v
           where v.option_name = 'autovacuum_vacuum_scale_factor')  as sf,
         (select v.option_value from pg_options_to_table(c.reloptions) as v
           where v.option_name = 'autovacuum_vacuum_max_threshold') as mx,
         (select v.option_value from pg_options_to_table(c.reloptions) as v
           where v.option_name = 'autovacuum_enabled')              as enabled
    from pg_class as c
   where c.oid = to_regclass('vac_delete.jobs')
),
e as (
  select coalesce(thr, current_setting('autovacuum_vacuum_threshold'))::bigint    as thr,
         coalesce(sf, current_setting('autovacuum_vacuum_scale_factor'))::float8  as sf,
         coalesce(mx, current_setting('autovacuum_vacuum_max_threshold'))::bigint as mx,
         coalesce(enabled, 'on')::bool                                          as enabled
    from o
)
select coalesce((select enabled
                    and ((mx >= 0 and mx <= 1000) or (sf = 0 and thr <= 1000))
                   from e), false) as solved
