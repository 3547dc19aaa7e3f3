# bench/cluster-scale.sh: steps and time of a full archscope cluster run, from cluster-scale.dat
set title 'archscope cluster: a full run on N nodes of 128 cores'
set logscale xy
set xlabel 'nodes (128 ranks each)'
set ylabel 'time of a full run (s)'
set y2label 'steps'
set logscale y2
set y2tics
set ytics nomirror
set key below maxrows 3
set grid
set xrange [1.6:1300]
set xtics (2,4,8,16,32,64,128,256,512,1024)
plot 'cluster-scale.dat' using 1:4 with linespoints lw 2 title 'full P x P, step times measured here', \
     '' using 1:6 with linespoints lw 2 title 'nodes schedule, step times measured here', \
     '' using 1:7 with linespoints lw 2 title 'nodes schedule, bandwidth steps at 100 Gb/s', \
     '' using 1:3 axes x1y2 with lines dt 2 title 'full: steps', \
     '' using 1:5 axes x1y2 with lines dt 2 title 'nodes: steps', \
     60 with lines lc rgb 'gray' title '1 minute', 3600 with lines lc rgb 'black' title '1 hour'
