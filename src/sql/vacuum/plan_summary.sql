-- Read an EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) result: pages, time, and how the table
-- was found. plan_walk.sql (its `node`: every plan node) comes before this file: the app
-- puts them together (db::sql_file!'s `plan`).
-- $1 text: the "QUERY PLAN" value of an EXPLAIN the lab ran (explain.sql before a claim),
-- as JSON text.
-- Returns one row:
--   pages bigint         shared buffers hit + read by the whole execution: the top plan
--                        node's "Shared Hit Blocks" + "Shared Read Blocks". Buffer counts
--                        are cumulative (a node includes its children, and an InitPlan's
--                        pages also show under the node that first needed its value), so
--                        the top node is the total; summing over nodes would count twice.
--                        "Read" counts pages that were not in shared buffers (PGlite:
--                        128 MB, so 0 at the lab's sizes — every page is a "Hit").
--                        It includes pages read by functions the query calls (lab.now()
--                        reads none: it is a setting); statio.sql counts the table alone.
--   shared_hit bigint, shared_read bigint
--   planning_pages bigint  buffers used while planning (not in pages)
--   execution_ms float8, planning_ms float8
--   seq_scan bool        some node is a Seq Scan
--   sort bool            some node is a Sort: every candidate row was read to pick one
--   uses_jobs_ready bool some node reads the partial index jobs_ready
--   scans text           the scan nodes, in plan order, e.g.
--                        'Seq Scan on jobs; Index Scan using jobs_pkey on jobs'
select ((top.j -> 'Plan' ->> 'Shared Hit Blocks')::bigint
        + (top.j -> 'Plan' ->> 'Shared Read Blocks')::bigint)         as pages,
       (top.j -> 'Plan' ->> 'Shared Hit Blocks')::bigint              as shared_hit,
       (top.j -> 'Plan' ->> 'Shared Read Blocks')::bigint             as shared_read,
       coalesce((top.j -> 'Planning' ->> 'Shared Hit Blocks')::bigint, 0)
       + coalesce((top.j -> 'Planning' ->> 'Shared Read Blocks')::bigint, 0) as planning_pages,
       (top.j ->> 'Execution Time')::float8                           as execution_ms,
       (top.j ->> 'Planning Time')::float8                            as planning_ms,
       bool_or(node.n ->> 'Node Type' = 'Seq Scan')                   as seq_scan,
       bool_or(node.n ->> 'Node Type' = 'Sort')                       as sort,
       coalesce(bool_or(node.n ->> 'Index Name' = 'jobs_ready'), false) as uses_jobs_ready,
       coalesce(string_agg(
         case
           when node.n ? 'Index Name' then
             (node.n ->> 'Node Type') || ' using ' || (node.n ->> 'Index Name')
             || coalesce(' on ' || (node.n ->> 'Relation Name'), '')
           when node.n ? 'Relation Name' and node.n ->> 'Node Type' <> 'ModifyTable' then
             (node.n ->> 'Node Type') || ' on ' || (node.n ->> 'Relation Name')
         end, '; ' order by node.path), '')                            as scans
  from node, (select $1::jsonb -> 0 as j) as top
 group by top.j
