-- Challenge jobs-dual-write: an order with no job anywhere in the jobs table (the dual
-- write lost it), and an order whose job was written in the order's own transaction.
select exists (
         select 1 from orders o
          where not exists (select 1 from jobs j where j.payload -> 'order_id' = to_jsonb(o.id)))
   and exists (
         select 1 from orders o
           join jobs j on j.payload -> 'order_id' = to_jsonb(o.id)) as solved
