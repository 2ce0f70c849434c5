-- §1, checked: every order the lab wrote ($2, bigint[]: committed or rolled back) and every
-- order in the table, against the messages the simulated broker holds ($1, bigint[]: one
-- order id per message) and the receipt jobs in the jobs table. An order with no job
-- anywhere lost its job; a message for an order that does not exist is a ghost.
select o.id as order_id,
       exists (select 1 from orders where id = o.id) as order_exists,
       (select count(*) from unnest($1::bigint[]) b(id) where b.id = o.id) as in_broker,
       (select count(*) from jobs j where j.payload -> 'order_id' = to_jsonb(o.id)) as in_jobs
  from (select unnest($1::bigint[]) as id
        union select unnest($2::bigint[])
        union select id from orders) o
 order by o.id
