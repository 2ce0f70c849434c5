select id, customer, total::text as total, created::text as created
  from orders
 order by id desc
 limit 50
