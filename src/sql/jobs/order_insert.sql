-- §1: an order for customer $1 totalling $2; returns its id.
insert into orders (customer, total)
values ($1, $2)
returning id
