# Stitches the generated pass references of every library and the remat
# options into one page: cmake -DOUTPUT=... -DOPTIONS=... -DPARTS="title;file;..."
file(WRITE ${OUTPUT} "<!-- Generated from the Passes.td files and RematOptions.def; do not edit. -->\n\n# ckpt passes\n")
list(LENGTH PARTS count)
math(EXPR last "${count} - 1")
foreach(index RANGE 0 ${last} 2)
  math(EXPR next "${index} + 1")
  list(GET PARTS ${index} title)
  list(GET PARTS ${next} part)
  file(READ ${part} text)
  file(APPEND ${OUTPUT} "\n# ${title}\n\n${text}")
endforeach()
file(READ ${OPTIONS} text)
file(APPEND ${OUTPUT} "\n${text}")
