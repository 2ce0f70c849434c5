-- Every node of an EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) result, in plan order, for
-- the claim-plan viewer: the rows of plan_walk.sql's `node`, which comes before this file
-- (the app puts them together: db::sql_file!'s `plan`).
-- $1 text: the "QUERY PLAN" value, as JSON text.
-- Returns one row per node:
--   depth int, node_type text, parent_relationship text (null at the top; 'InitPlan'
--   for a subquery run once), relation text, index_name text, actual_rows float8,
--   loops float8, total_ms float8, shared_hit bigint, shared_read bigint (cumulative:
--   a node's figures include its children's), detail text (Filter / Index Cond /
--   Sort Key, whichever the node has)
select (cardinality(path) - 1)::int                     as depth,
       n ->> 'Node Type'                                 as node_type,
       n ->> 'Parent Relationship'                       as parent_relationship,
       n ->> 'Relation Name'                             as relation,
       n ->> 'Index Name'                                as index_name,
       (n ->> 'Actual Rows')::float8                     as actual_rows,
       (n ->> 'Actual Loops')::float8                    as loops,
       (n ->> 'Actual Total Time')::float8               as total_ms,
       (n ->> 'Shared Hit Blocks')::bigint               as shared_hit,
       (n ->> 'Shared Read Blocks')::bigint              as shared_read,
       coalesce(n ->> 'Index Cond', n ->> 'Filter',
                (select string_agg(k, ', ') from jsonb_array_elements_text(n -> 'Sort Key') as k)) as detail
  from node
 order by path
