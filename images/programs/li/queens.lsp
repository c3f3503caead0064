; N-queens for li: counts every placement of *n* queens on an *n* x *n* board with no two
; attacking each other, then checks each solution found with an independent test.
;
; A partial solution is the list of the rows of the queens placed so far, the most recent
; column first.

(defun safe (row dist placed)
  ; can a queen go in `row` of the next column, given queens `placed` (dist columns back = 1)?
  (cond ((null placed) t)
        ((or (= (car placed) row)
             (= (car placed) (+ row dist))
             (= (car placed) (- row dist)))
         nil)
        (t (safe row (1+ dist) (cdr placed)))))

(setq *solutions* nil)

(defun place (n col placed)
  ; number of solutions that extend `placed` (queens in columns 1 .. col-1)
  (if (> col n)
      (progn (setq *solutions* (cons placed *solutions*)) 1)
      (let ((row 1) (count 0))
        (while (<= row n)
          (if (safe row 1 placed)
              (setq count (+ count (place n (1+ col) (cons row placed)))))
          (setq row (1+ row)))
        count)))

; ---- independent check: every pair of queens, compared by position in the list ----

(defun attacks (r1 c1 r2 c2)
  (or (= r1 r2) (= (abs (- r1 r2)) (abs (- c1 c2)))))

(defun pairs-ok (sol c1)
  ; does the queen at the head of sol (column c1) attack none of the later ones?
  (let ((r1 (car sol)) (rest (cdr sol)) (c2 (1+ c1)) (ok t))
    (while (and ok rest)
      (if (attacks r1 c1 (car rest) c2) (setq ok nil))
      (setq rest (cdr rest))
      (setq c2 (1+ c2)))
    ok))

(defun valid (sol n)
  (and (= (length sol) n)
       (let ((c 1) (s sol) (ok t))
         (while (and ok s)
           (setq ok (and (>= (car s) 1) (<= (car s) n) (pairs-ok s c)))
           (setq s (cdr s))
           (setq c (1+ c)))
         ok)))

(defun count-if-valid (sols n)
  (apply '+ (mapcar (lambda (s) (if (valid s n) 1 0)) sols)))

(defun distinct (sols)
  ; no solution appears twice
  (cond ((null sols) t)
        ((member (car sols) (cdr sols)) nil)
        (t (distinct (cdr sols)))))

(defun last-of (l)
  (if (null (cdr l)) l (last-of (cdr l))))

; the number of solutions for n = 1 .. 12, as published (OEIS A000170)
(setq *known* '(1 0 0 2 10 4 40 92 352 724 2680 14200))

(setq *count* (place *n* 1 nil))
(princ "queens ") (princ *n*) (princ ": ") (princ *count*) (princ " solutions") (terpri)
(princ "checked: ") (princ (count-if-valid *solutions* *n*)) (princ " valid, ")
(princ (if (distinct *solutions*) "all distinct" "DUPLICATES")) (terpri)
(if (<= *n* (length *known*))
    (progn (princ (if (= *count* (nth (1- *n*) *known*)) "matches" "DOES NOT MATCH"))
           (princ " the known count") (terpri)))
(if *solutions*
    (progn (princ "first found: ") (print (reverse (car (last-of *solutions*))))))
