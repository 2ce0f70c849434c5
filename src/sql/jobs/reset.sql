drop table if exists jobs, orders
