module example.com/course

go 1.26.5
