-- §1: the receipt e-mail job of order $1, in the order's transaction; returns its id.
insert into jobs (payload)
values (jsonb_build_object('kind', 'receipt_email', 'order_id', $1::bigint))
returning id
