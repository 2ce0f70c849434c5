-- Back to the lab's default search path (as clock_install.sql sets it) when L3 is done,
-- so other labs' `jobs` is their own again.
select set_config('search_path', 'lab, pg_catalog, public', false) as search_path
