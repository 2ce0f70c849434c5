-- $1 queue: each consumer's cursor among the event tables: the oldest table holding an event it has not read (null: caught up), and how many
select * from pgque.get_cursor_info($1)
