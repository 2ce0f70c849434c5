-- The walk over an EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) plan tree that plan_nodes.sql and
-- plan_summary.sql read: not a statement by itself. The app puts it before either file
-- (db::sql_file!'s `plan`), so the two share one walk.
-- $1 text: the "QUERY PLAN" value, as JSON text.
-- Gives node(path int[], n jsonb): every plan node, the top one at path {0}, a child at its
-- parent's path and its place among the parent's "Plans" (from 1); ordering by path is
-- plan order.
with recursive node(path, n) as (
  select array[0], $1::jsonb -> 0 -> 'Plan'
  union all
  select node.path || c.ord::int, c.value
    from node
   cross join lateral jsonb_array_elements(node.n -> 'Plans') with ordinality as c(value, ord)
)
