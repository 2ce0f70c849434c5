select pgq.ticker($1) as tick_id
