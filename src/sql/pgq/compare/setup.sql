-- Side by side, step 1: a fresh `compare` queue in the pgq engine (two consumers, three
-- event tables, rotation every 30 s) and, beside it, a schema of its own for the SKIP
-- LOCKED queue, so neither touches the lab's `orders` queue or L1's `jobs`.
-- The search path puts pgq_compare first while L1's schema.sql creates the article's
-- `jobs` table there (with lab ahead of pg_catalog, its `default now()` is lab time).
-- Parameterless; one exec. The run ends with reset_search_path.sql.
select pgq.drop_queue('compare') from pgq.queue where queue_name = 'compare';
select pgq.create_queue('compare', 3, interval '30 seconds', 3);
select pgq.register_consumer('compare', 'billing');
select pgq.register_consumer('compare', 'email');
drop schema if exists pgq_compare cascade;
create schema pgq_compare;
select set_config('search_path', 'pgq_compare, lab, pg_catalog, public', false);
