-- maint() for the side by side's queue only ($1 = 'compare'); the lab's `orders` queue is
-- left as it is. Returns (queue_name, action, detail) rows.
select * from pgque.maint_report($1)
