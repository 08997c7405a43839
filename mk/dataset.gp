# dataset.gp: the dataset card's plots (mk/dataset.mk), from the data
# kpack assemble --plots writes.  gnuplot -e "dat='DIR'; png='OUTDIR'"
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
bin(x) = 2 ** (floor(log(x) / log(2) * 4) / 4.0)
plot dat.'/lines.dat' using (bin($1)):(1.0) smooth freq with boxes title 'source' lc rgb '#4477aa', \
     dat.'/lines.dat' using (bin($2)):(1.0) smooth freq with boxes title 'forward' lc rgb '#228833', \
     dat.'/lines.dat' using (bin($3)):(1.0) smooth freq with boxes title 'backward' lc rgb '#ee6677'
unset output
