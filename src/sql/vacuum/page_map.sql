-- Heap page map: one row per 8 KB heap page of a table, from the page itself
-- (pageinspect) and the visibility map (pg_visibility).
-- $1 text: the table, e.g. 'vac_delete.jobs'.
-- Returns, ordered by page:
--   page int, live int, dead int, redirect int, unused int, free_bytes int,
--   all_visible bool, all_frozen bool
-- How each line pointer is classified:
--   unused    lp_flags = 0: a free slot, reusable by the next tuple on this page.
--   redirect  lp_flags = 2: a HOT-chain stub pointing at a newer version on the same page
--             (no tuple data; neither live nor dead).
--   dead      lp_flags = 3 (LP_DEAD: page pruning already removed the tuple, the pointer
--             waits for VACUUM to clear index entries), or a normal tuple that is gone for
--             good: deleted or updated by a committed transaction (xmax set, committed,
--             and not just a row lock — FOR UPDATE leaves an xmax that is only a locker),
--             or inserted by an aborted transaction. "Committed" is read from the hint
--             bits when set, else from the commit log (pg_xact_status). A dead tuple that
--             an old snapshot (the long transaction) can still see counts as dead: it is
--             exactly what VACUUM cannot remove yet. This is the same set that
--             pg_stat_user_tables.n_dead_tup counts.
--   live      any other normal tuple (including ones deleted by a transaction still in
--             progress or prepared, and a MultiXact xmax, which this map does not unpack).
--   free_bytes  pd_upper - pd_lower: the hole between the line pointers and the tuples;
--             space held by dead tuples is not free until pruning or VACUUM.
--   all_visible / all_frozen  the table's visibility-map bits for the page (set by VACUUM).
-- xid -> xid8 for pg_xact_status: the 32-bit xid is widened against the current
-- snapshot's xmax (correct for any xid less than 2^31 transactions old).
-- A partitioned table (vac_partition.jobs) has no pages of its own: its map is its leaf
-- partitions' pages one after another, oldest partition first, numbered on from one
-- partition to the next (lab.leaves, setup_helpers.sql: a table that is not partitioned is
-- its own one leaf).
-- Measured in PGlite (Node): ~1,000 pages in well under a second (see the report).
with rel as (
  select pg_snapshot_xmax(pg_current_snapshot())::text::bigint as next_xid
),
leaves as (
  select l as relid from lab.leaves($1::regclass) as l
),
sized as (
  select l.relid,
         pg_relation_size(l.relid) / current_setting('block_size')::int as pages
    from leaves as l
),
placed as (
  select sized.relid, sized.pages,
         coalesce(sum(sized.pages) over (order by sized.relid::oid
                                         rows between unbounded preceding and 1 preceding), 0) as first
    from sized
),
blocks as (
  select placed.relid, b::int as block, (placed.first + b)::int as page
    from placed, generate_series(0, placed.pages - 1) as b
),
raw as materialized (
  select blocks.relid, blocks.block, blocks.page,
         get_raw_page(blocks.relid::text, blocks.block) as bytes
    from blocks
)
select raw.page,
       coalesce(c.live, 0)::int     as live,
       coalesce(c.dead, 0)::int     as dead,
       coalesce(c.redirect, 0)::int as redirect,
       coalesce(c.unused, 0)::int   as unused,
       (h.upper - h.lower)::int     as free_bytes,
       vm.all_visible,
       vm.all_frozen
  from raw
 cross join rel
 cross join lateral page_header(raw.bytes) as h
 cross join lateral pg_visibility_map(raw.relid, raw.block::bigint) as vm
 cross join lateral (
   select count(*) filter (where k = 'live')     as live,
          count(*) filter (where k = 'dead')     as dead,
          count(*) filter (where k = 'redirect') as redirect,
          count(*) filter (where k = 'unused')   as unused
     from (
       select case
                when i.lp_flags = 0 then 'unused'
                when i.lp_flags = 2 then 'redirect'
                when i.lp_flags = 3 then 'dead'
                -- inserted by an aborted transaction (XMIN_INVALID without XMIN_COMMITTED,
                -- i.e. not frozen), or no hint yet and the commit log says aborted
                when i.t_infomask & 768 = 512 then 'dead'
                when i.t_infomask & 768 = 0
                 and pg_xact_status((rel.next_xid - ((rel.next_xid - i.t_xmin::text::bigint) & 4294967295))::text::xid8) = 'aborted'
                  then 'dead'
                -- no deleter: xmax 0 or marked invalid
                when i.t_xmax::text = '0' or i.t_infomask & 2048 <> 0 then 'live'
                -- xmax only locks the row: XMAX_LOCK_ONLY, or EXCL_LOCK alone
                when i.t_infomask & 128 <> 0 or i.t_infomask & (4096 | 80) = 64 then 'live'
                -- xmax is a MultiXact: not unpacked here
                when i.t_infomask & 4096 <> 0 then 'live'
                -- the deleter committed: XMAX_COMMITTED hint, or the commit log
                when i.t_infomask & 1024 <> 0 then 'dead'
                when pg_xact_status((rel.next_xid - ((rel.next_xid - i.t_xmax::text::bigint) & 4294967295))::text::xid8) = 'committed'
                  then 'dead'
                else 'live'
              end as k
         from heap_page_items(raw.bytes) as i
     ) as items
 ) as c
 order by raw.page
