-- Side by side, step 1: a fresh `compare` queue in the pgque engine (two consumers, three
-- event tables, rotation every 30 s) and, beside it, a schema of its own for the SKIP
-- LOCKED queue, so neither touches the lab's `orders` queue or L1's `jobs`.
-- The search path puts pgq_compare first while L1's schema.sql creates the article's
-- `jobs` table there (with lab ahead of pg_catalog, its `default now()` is lab time).
-- Parameterless; one exec. The run ends with reset_search_path.sql.
select pgque.drop_queue('compare', true) from pgque.queue where queue_name = 'compare';
select pgque.create_queue('compare', 3);
select pgque.set_queue_config('compare', 'rotation_period', '30 seconds');
select pgque.subscribe('compare', 'billing');
select pgque.subscribe('compare', 'email');
drop schema if exists pgq_compare cascade;
create schema pgq_compare;
select set_config('search_path', 'pgq_compare, lab, pg_catalog, public', false);
