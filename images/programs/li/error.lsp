(princ "before error") (terpri)
(car 5)
(princ "not reached")
