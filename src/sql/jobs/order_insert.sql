insert into orders (customer, total)
values ($1, $2)
returning id
