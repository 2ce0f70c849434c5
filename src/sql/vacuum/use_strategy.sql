-- Point the unqualified name `jobs` at one strategy's table, keeping lab.now() (the
-- virtual clock) ahead of pg_catalog.now().
-- $1 text: 'vac_keep' | 'vac_delete' | 'vac_delete_vacuum' | 'vac_rotate' | 'vac_partition' |
--         'vac_plan'
-- Returns one row (search_path text) when $1 is one of those, no row otherwise.
select set_config('search_path', format('lab, %I, pg_catalog, public', s), false) as search_path
  from (values ($1::text)) as v(s)
 where s in ('vac_keep', 'vac_delete', 'vac_delete_vacuum', 'vac_rotate', 'vac_partition', 'vac_plan')
