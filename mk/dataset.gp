# dataset.gp: the dataset card's plots (mk/dataset.sh assemble), from the
# data kpack assemble --plots writes.
#   gnuplot -e "dat='DIR'; png='OUTDIR'; grad=1" mk/dataset.gp
# (grad=0: no gradient-check plot, the records ran no gradient check)
set terminal png size 800,400 font ",10"
set style fill solid 0.8 border -1
set boxwidth 0.8 relative
set grid ytics

set output png.'/categories.png.tmp'
set title 'records per category'
set ylabel 'records'
set xtics rotate by -30
set yrange [0:*]
plot dat.'/categories.dat' using 2:xtic(1) with boxes notitle lc rgb '#4477aa'

set output png.'/lines.png.tmp'
set title 'lines per record'
set xtics norotate
set xlabel 'lines'
set ylabel 'records'
set logscale x
set style fill transparent solid 0.5 noborder
# quarter-octave bins, counted into tables, drawn as boxes from each bin's
# start to the next's (boxes of a width in data units would not fit a log
# axis: a lone bin would spread over its empty neighbours)
bin(x) = 2 ** (floor(log(x) / log(2) * 4) / 4.0)
set table $src
plot dat.'/lines.dat' using (bin($1)):(1.0) smooth freq
set table $fwd
plot dat.'/lines.dat' using (bin($2)):(1.0) smooth freq
set table $bwd
plot dat.'/lines.dat' using (bin($3)):(1.0) smooth freq
unset table
box = '1:2:1:($1 * 2 ** 0.25):(0):2'
plot $src using @box with boxxyerror title 'source' lc rgb '#4477aa', \
     $fwd using @box with boxxyerror title 'forward' lc rgb '#228833', \
     $bwd using @box with boxxyerror title 'backward' lc rgb '#ee6677'

if (grad) {
	# krun --gradcheck's worst_ratio: the worst component's error over its
	# tolerance (doc/runtime.md), 1 at most for a record that passes; an
	# exact gradient (0) is drawn at 1e-8
	set output png.'/gradcheck.png.tmp'
	set title "the gradient check's worst error over its tolerance (a record passes at 1 or below)"
	set xlabel 'worst |grad - fd| / tolerance'
	set ylabel 'records'
	set style fill solid 0.8 border -1
	# quarter-decade bins, counted into a table, drawn as boxes from each
	# bin's start to the next's (boxes of a width in data units would not
	# fit a log axis)
	gbin(x) = x < 1e-8 ? 1e-8 : 10 ** (floor(log10(x) * 4) / 4.0)
	set table $gfreq
	plot dat.'/gradcheck.dat' using (gbin($1)):(1.0) smooth freq
	unset table
	set xrange [1e-8:10]
	set format x '10^{%T}'
	set arrow from 1, graph 0 to 1, graph 1 nohead dt 2 lc rgb '#000000'
	set yrange [0:*]
	plot $gfreq using 1:2:1:($1 * 10 ** 0.25):(0):2 with boxxyerror notitle lc rgb '#aa3377'
}
unset output
