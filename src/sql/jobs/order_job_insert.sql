insert into jobs (payload)
values (jsonb_build_object('kind', 'receipt_email', 'order_id', $1::bigint))
returning id
